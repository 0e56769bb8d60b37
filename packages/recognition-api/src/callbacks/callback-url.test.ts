import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { checkCallbackUrl, isForbiddenAddress } from './callback-url.js';

const resolveTo = (addresses: string[]) => async () => addresses;

describe('callback URL address checks', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', '::ffff:127.0.0.1', '224.0.0.1'])(
    '%s is forbidden', (a) => expect(isForbiddenAddress(a)).toBe(true));
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (a) => expect(isForbiddenAddress(a)).toBe(false));

  const check = (url: string, addresses: string[], allowPrivate = false) => checkCallbackUrl(url, { allowPrivate, resolve: resolveTo(addresses) });

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
    await expect(checkCallbackUrl('https://nx.example/x', { allowPrivate: false, resolve: async () => { throw new Error('ENOTFOUND'); } })).rejects.toThrow(/does not resolve/);
  });

  it('RECOGNITION_ALLOW_PRIVATE_CALLBACKS=1 allows private targets', async () => {
    await expect(check('http://127.0.0.1:8080/x', [], true)).resolves.toBeUndefined();
  });
});
