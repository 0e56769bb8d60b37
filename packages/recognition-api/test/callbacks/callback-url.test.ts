import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { checkCallbackUrl, isForbiddenAddress } from '../../src/callbacks/callback-url.js';

const resolveTo = (addresses: string[]) => async () => addresses;

describe('callback URL address checks', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '224.0.0.1',
  ])('%s is forbidden', (a) => expect(isForbiddenAddress(a)).toBe(true));
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (a) => expect(isForbiddenAddress(a)).toBe(false));
  it.each(['10.1.2.3', '169.254.169.254', '0.0.0.0', 'fe80::1', 'fd00:ec2::254', '192.168.1.1'])('%s stays forbidden when loopback is allowed', (a) =>
    expect(isForbiddenAddress(a, { allowLoopback: true })).toBe(true),
  );
  it.each(['127.0.0.1', '::1', '::ffff:127.0.0.1'])('%s is allowed only with allowLoopback', (a) =>
    expect(isForbiddenAddress(a, { allowLoopback: true })).toBe(false),
  );

  const check = (url: string, addresses: string[], allowLoopback = false) => checkCallbackUrl(url, { allowLoopback, resolve: resolveTo(addresses) });

  it('accepts a public host', async () => {
    await expect(check('https://hooks.example.com/x', ['93.184.216.34'])).resolves.toBeUndefined();
  });

  it('refuses a host resolving to a private address, or to any private one among several', async () => {
    await expect(check('https://hooks.example.com/x', ['10.0.0.5'])).rejects.toThrow(/^callback_url: points at a private/);
    await expect(check('https://hooks.example.com/x', ['93.184.216.34', '::1'])).rejects.toBeInstanceOf(ApiError);
  });

  it('refuses IP literals in the private ranges, including IPv6 and bracketed forms', async () => {
    await expect(check('http://127.0.0.1:8080/x', [])).rejects.toThrow(/private/);
    await expect(check('http://[::1]/x', [])).rejects.toThrow(/private/);
    await expect(check('http://[fd12::5]/x', [])).rejects.toThrow(/private/);
  });

  it('refuses non-http schemes, credentials and unresolvable hosts', async () => {
    await expect(check('ftp://example.com/x', ['93.184.216.34'])).rejects.toThrow(/http or https/);
    await expect(check('https://u:p@example.com/x', ['93.184.216.34'])).rejects.toThrow(/credentials/);
    await expect(
      checkCallbackUrl('https://nx.example/x', {
        allowLoopback: false,
        resolve: async () => {
          throw new Error('ENOTFOUND');
        },
      }),
    ).rejects.toThrow(/does not resolve/);
  });

  // Fuzz finding: every one of these was accepted under `npm start`.
  const fuzz = [
    'http://127.0.0.1/h',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/h',
    'http://[::ffff:127.0.0.1]/h',
    'http://0x7f000001/h',
    'http://2130706433/h',
    'http://10.0.0.1/h',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://METADATA.google.internal./x',
    'http://0177.0.0.1/h',
    'http://0/h',
    'http://[fe80::1]/h',
    'http://100.64.1.1/h',
    'http://[::ffff:169.254.169.254]/h',
  ];
  it.each(fuzz)('%s is refused in production', async (url) => {
    await expect(check(url, ['169.254.169.254'])).rejects.toThrow(/^callback_url: /);
  });

  const neverEvenForDemo = fuzz.filter((u) => !/127\.0\.0\.1|\[::1\]|0x7f000001|2130706433|0177\.0\.0\.1/.test(u));
  it.each(neverEvenForDemo)('%s is refused even when loopback is allowed (npm start)', async (url) => {
    await expect(check(url, ['169.254.169.254'], true)).rejects.toThrow(/^callback_url: /);
  });

  it.each(['http://127.0.0.1:8080/x', 'http://[::1]:9/x', 'http://0x7f000001/h', 'http://2130706433/h'])(
    'the npm start demo allows loopback %s',
    async (url) => {
      await expect(check(url, [], true)).resolves.toBeUndefined();
    },
  );

  it('with loopback allowed, a name resolving to a private address is still refused', async () => {
    await expect(check('http://intranet.example/x', ['10.0.0.7'], true)).rejects.toThrow(/only loopback is allowed/);
  });
});
