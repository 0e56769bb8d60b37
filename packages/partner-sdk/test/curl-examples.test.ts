import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignedServer, type SeenRequest } from './signed-server.js';

const run = promisify(execFile);
const CURL_DIR = join(import.meta.dirname, '..', '..', '..', 'examples', 'curl');
const KEY = { apiKey: 'curl-key-0001', apiSecret: 'curl-secret-0123456789abcdef0123456789' };

let server: Awaited<ReturnType<typeof startSignedServer>>;
beforeAll(async () => {
  // Real clock: the scripts take the time from `date +%s`.
  server = await startSignedServer({
    ...KEY,
    route: (r: SeenRequest) => ({ status: 200, json: { method: r.method, path: r.path, query: r.query, body: r.body } }),
  });
});
afterAll(async () => server.close());

// Only the variables the scripts need, so nothing from the developer's shell leaks in.
const baseEnv = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir() });
const sh = (script: string, args: string[], env: Record<string, string>, input?: string) => {
  const p = run('bash', [join(CURL_DIR, script), ...args], { env: { ...baseEnv(), ...env } });
  if (input !== undefined) {
    p.child.stdin!.end(input);
  }
  return p;
};

describe('curl examples interoperate with a server verifying signatures with @app/shared', () => {
  it('signed-get.sh with credentials from the environment; the query is sent but not signed', async () => {
    const env = { BASE_URL: server.baseUrl, API_KEY: KEY.apiKey, API_SECRET: KEY.apiSecret };
    const { stdout, stderr } = await sh('signed-get.sh', ['/v1/orders', 'externalOrderId=WEB-1'], env);
    expect(JSON.parse(stdout)).toEqual({ method: 'GET', path: '/v1/orders', query: 'externalOrderId=WEB-1', body: '' });
    expect(stderr).toMatch(/^HTTP 200/);
    const inline = await sh('signed-get.sh', ['/v1/orders/abc?source=website'], env);
    expect(JSON.parse(inline.stdout)).toEqual({ method: 'GET', path: '/v1/orders/abc', query: 'source=website', body: '' });
  });

  it('signed-post.sh from a file and from stdin, credentials from the demo JSON file (no jq); non-ASCII bytes kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'curl-'));
    const creds = join(dir, 'demo-credentials.json');
    writeFileSync(creds, JSON.stringify({ baseUrl: `${server.baseUrl}/`, ...KEY, source: 'website' }));
    const body = '{"deliveryType":"courier","address":{"street":"Тверская","house":"1"}}';
    writeFileSync(join(dir, 'body.json'), body);
    const fromFile = await sh('signed-post.sh', ['/v1/delivery/resolve', join(dir, 'body.json')], { CREDENTIALS_FILE: creds });
    expect(JSON.parse(fromFile.stdout)).toEqual({ method: 'POST', path: '/v1/delivery/resolve', query: '', body });
    const fromStdin = await sh('signed-post.sh', ['/v1/checkout/calculate', '-'], { CREDENTIALS_FILE: creds }, '{"pointId":"101","items":[]}\n');
    expect(JSON.parse(fromStdin.stdout).body).toBe('{"pointId":"101","items":[]}\n');
    expect(server.seen.at(-1)!.headers['content-type']).toBe('application/json');
  });

  it('a wrong secret is refused (401) and the script exits non-zero', async () => {
    const env = { BASE_URL: server.baseUrl, API_KEY: KEY.apiKey, API_SECRET: 'not-the-secret-0123456789abcdef01234' };
    const err = (await sh('signed-get.sh', ['/v1/points'], env).catch((e: unknown) => e)) as { code: number; stdout: string; stderr: string };
    expect(err.code).toBe(1);
    expect(JSON.parse(err.stdout)).toEqual({ error: 'unauthorized' });
    expect(err.stderr).toMatch(/^HTTP 401/);
  });

  it('planned.sh calls the switched endpoints with the demo file’s planned key, the phone escaped in the signed path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'curl-'));
    const creds = join(dir, 'demo-credentials.json');
    writeFileSync(
      creds,
      JSON.stringify({ baseUrl: server.baseUrl, apiKey: 'website-key-0001', apiSecret: 'w'.repeat(40), planned: { source: 'planned', ...KEY } }),
    );
    const env = { CREDENTIALS_FILE: creds };
    expect(JSON.parse((await sh('planned.sh', ['status'], env)).stdout)).toMatchObject({ path: '/v1/status', query: '' });
    expect(JSON.parse((await sh('planned.sh', ['orders', '+79990000001', '5', 'abc'], env)).stdout)).toMatchObject({
      path: '/v1/guests/%2B79990000001/orders',
      query: 'limit=5&cursor=abc',
    });
    expect(JSON.parse((await sh('planned.sh', ['loyalty', '+79990000001', '101'], env)).stdout)).toMatchObject({
      path: '/v1/guests/%2B79990000001/loyalty',
      query: 'pointId=101',
    });
    expect(JSON.parse((await sh('planned.sh', ['addresses', '+79990000001'], env)).stdout).path).toBe('/v1/guests/%2B79990000001/addresses');
  });
});
