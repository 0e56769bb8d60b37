import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCredentials } from '../src/index.js';
import { FakePosServer } from './fake-pos-server.js';

const CLI = join(import.meta.dirname, '..', 'src', 'cli.ts');
const run = promisify(execFile);
const keys = {
  '101': { apiKey: 'pos-key-101', apiSecret: 'secret-101-0123456789abcdef0123456789' },
  '114': { apiKey: 'pos-key-114', apiSecret: 'secret-114-0123456789abcdef0123456789' },
};

let server: FakePosServer;
let baseUrl: string;
const dir = mkdtempSync(join(tmpdir(), 'pos-cli-'));
beforeAll(async () => {
  server = new FakePosServer(Object.fromEntries(Object.values(keys).map((k) => [k.apiKey, k.apiSecret])));
  baseUrl = await server.start();
});
afterAll(() => server.close());

// Each case spawns a fresh tsx process (several seconds on a loaded machine), hence the longer timeout.
describe('cli --once', { timeout: 60_000 }, () => {
  it('syncs every terminal of a demo credentials file and exits 0', async () => {
    const file = join(dir, 'demo-pos-credentials.json');
    writeFileSync(file, JSON.stringify({ partner: { apiKey: 'x', apiSecret: 'y' }, pos: keys }));
    const { stdout } = await run(process.execPath, ['--import', 'tsx', CLI, '--base-url', baseUrl, '--credentials', file, '--once', '--seed', '1']);
    expect(server.rejected).toEqual([]);
    // Point 114 has no street dictionary: four calls; point 101 five.
    expect(server.of('pos-key-101')).toHaveLength(5);
    expect(server.of('pos-key-114').map((r) => r.path)).toEqual([
      '/pos/v1/menu',
      '/pos/v1/stop-list',
      '/pos/v1/product-mappings',
      '/pos/v1/heartbeat',
    ]);
    const status = JSON.parse(stdout.trim().split('\n').at(-1)!).status as { pointId: string; pending: string[] }[];
    expect(status.map((s) => [s.pointId, s.pending])).toEqual([
      ['101', []],
      ['114', []],
    ]);
  });

  it('exits 1 when a push fails (the server refuses the signature)', async () => {
    const file = join(dir, 'list.json');
    writeFileSync(file, JSON.stringify([{ pointId: '101', ...keys['101'], apiSecret: 'wrong-secret-0123456789abcdef012345' }]));
    await expect(run(process.execPath, ['--import', 'tsx', CLI, '--base-url', baseUrl, '--credentials', file, '--once'])).rejects.toMatchObject({
      code: 1,
    });
  });
});

describe('parseCredentials', () => {
  it('reads both shapes and names a bad entry', () => {
    expect(parseCredentials([{ pointId: '101', apiKey: 'k', apiSecret: 's' }])).toEqual([{ pointId: '101', apiKey: 'k', apiSecret: 's' }]);
    expect(parseCredentials({ pos: { '102': { apiKey: 'k2', apiSecret: 's2' } } })).toEqual([{ pointId: '102', apiKey: 'k2', apiSecret: 's2' }]);
    expect(() => parseCredentials([{ pointId: '101', apiKey: 'k' }], 'f.json')).toThrow('f.json: entry 0 needs a non-empty string apiSecret');
    expect(() => parseCredentials({})).toThrow(/expected/);
  });
});
