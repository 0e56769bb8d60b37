import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock, SequentialIds } from '@app/shared';
import {
  DEMO_CHAIN_PATH,
  loadChain,
  rotateStopList,
  seededRandom,
  startPosSimulator,
  type ChainDescription,
  type PosSimulator,
  type SimLogger,
  type TerminalCredential,
} from '../src/index.js';
import { FakePosServer } from './fake-pos-server.js';

let chain: ChainDescription;
let creds: TerminalCredential[];
const PATHS = ['/pos/v1/menu', '/pos/v1/stop-list', '/pos/v1/streets', '/pos/v1/product-mappings', '/pos/v1/heartbeat'];

beforeAll(async () => {
  chain = await loadChain(DEMO_CHAIN_PATH);
  creds = chain.points.map((p) => ({
    pointId: p.pointId,
    apiKey: `pos-key-${p.pointId}`,
    apiSecret: `secret-of-terminal-${p.pointId}-0123456789abcdef`,
  }));
});

const running: { sim?: PosSimulator; server?: FakePosServer }[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const r of running.splice(0)) {
    await r.sim?.stop();
    await r.server?.close();
  }
});

function recordingLog(): SimLogger & { warns: { fields: Record<string, unknown>; msg: string }[] } {
  const warns: { fields: Record<string, unknown>; msg: string }[] = [];
  return { warns, info: () => {}, warn: (fields, msg) => warns.push({ fields, msg }) };
}

async function setup(opts: { seed?: number; clock?: ManualClock; script?: FakePosServer['script'] } = {}) {
  const server = new FakePosServer(Object.fromEntries(creds.map((c) => [c.apiKey, c.apiSecret])));
  if (opts.script) server.script = opts.script;
  const baseUrl = await server.start();
  const log = recordingLog();
  const clock = opts.clock ?? new ManualClock('2026-11-23T09:00:00Z');
  const entry: { sim?: PosSimulator; server?: FakePosServer } = { server };
  running.push(entry);
  const sim = await startPosSimulator({
    baseUrl,
    chain,
    terminals: creds,
    clock,
    ids: new SequentialIds(),
    random: seededRandom(opts.seed ?? 7),
    log,
  });
  entry.sim = sim;
  return { server, sim, log, clock };
}

describe('startPosSimulator against a signature-checking HTTP server', () => {
  it('pushes menu, stop-list, streets, mappings and then a heartbeat once per terminal, all validly signed', async () => {
    const { server, log } = await setup();
    expect(server.rejected).toEqual([]);
    expect(log.warns).toEqual([]);
    for (const p of chain.points) {
      const expected = PATHS.filter((path) => path !== '/pos/v1/streets' || p.streetsKey !== null);
      expect(server.of(`pos-key-${p.pointId}`).map((r) => r.path)).toEqual(expected);
      const [menu] = server.of(`pos-key-${p.pointId}`, '/pos/v1/menu');
      expect(menu.body).toEqual({ categories: chain.menu.categories, items: chain.menu.items });
      expect(server.of(`pos-key-${p.pointId}`, '/pos/v1/stop-list')[0].body).toEqual({ items: chain.stopList.initial });
      expect(server.of(`pos-key-${p.pointId}`, '/pos/v1/product-mappings')[0].body).toEqual({ products: chain.productMappings });
      if (p.streetsKey)
        expect(server.of(`pos-key-${p.pointId}`, '/pos/v1/streets')[0].body).toEqual({ streets: chain.streetDictionaries[p.streetsKey] });
    }
    expect(server.requests).toHaveLength(chain.points.length * 5 - chain.points.filter((p) => p.streetsKey === null).length);
    // Timestamps come from the injected clock (Unix seconds of 2026-11-23T09:00:00Z).
    expect(new Set(server.requests.map((r) => r.timestamp))).toEqual(new Set(['1795424400']));
    expect(new Set(server.requests.map((r) => r.requestId)).size).toBe(server.requests.length);
  });

  it('tick rotates each stop-list by one item, deterministically for a seed, and pushes the full list', async () => {
    const { server, sim } = await setup({ seed: 42 });
    await sim.tick();
    await sim.tick();
    // The same seed drawn in terminal order gives the same lists.
    const random = seededRandom(42);
    const pool = [...new Set([...chain.stopList.initial.map((e) => e.id), ...chain.stopList.rotation])];
    let lists = chain.points.map(() => chain.stopList.initial);
    for (let round = 0; round < 2; round++) lists = lists.map((l) => rotateStopList(l, pool, random).next);
    chain.points.forEach((p, i) => {
      const pushes = server.of(`pos-key-${p.pointId}`, '/pos/v1/stop-list');
      expect(pushes).toHaveLength(3);
      expect(pushes[2].body).toEqual({ items: lists[i] });
      expect(sim.status()[i].stopList).toEqual(lists[i]);
    });
    expect(lists.some((l) => JSON.stringify(l) !== JSON.stringify(chain.stopList.initial))).toBe(true);
    expect(server.of('pos-key-101', '/pos/v1/heartbeat')).toHaveLength(3);
    expect(server.of('pos-key-101', '/pos/v1/menu')).toHaveLength(1);
  });

  it('tick re-pushes the menu only once it is older than 10 minutes on the clock', async () => {
    const { server, sim, clock } = await setup();
    clock.advance(599_000);
    await sim.tick();
    expect(server.of('pos-key-103', '/pos/v1/menu')).toHaveLength(1);
    clock.advance(1_000);
    await sim.tick();
    expect(server.of('pos-key-103', '/pos/v1/menu')).toHaveLength(2);
  });

  it('survives a 500 on a push and a heartbeat, logs them, and retries on the next tick', async () => {
    let failing = true;
    const { server, sim, log } = await setup({
      script: ({ apiKey, path }) =>
        failing && apiKey === 'pos-key-101' && (path === '/pos/v1/menu' || path === '/pos/v1/heartbeat')
          ? { status: 500, body: { error: 'internal_error', message: 'boom' } }
          : undefined,
    });
    const s101 = () => sim.status().find((s) => s.pointId === '101')!;
    expect(s101().pending).toEqual(['menu']);
    expect(s101().aliveAt).toBeNull();
    expect(s101().lastError).toMatchObject({ what: 'heartbeat', code: 'internal_error' });
    expect(log.warns.map((w) => [w.fields.pointId, w.fields.kind ?? 'heartbeat', (w.fields.err as { status: number }).status])).toEqual([
      ['101', 'menu', 500],
      ['101', 'heartbeat', 500],
    ]);
    // The later pushes of that terminal were still made.
    expect(server.of('pos-key-101').map((r) => r.path)).toEqual(['/pos/v1/stop-list', '/pos/v1/streets', '/pos/v1/product-mappings']);

    await sim.tick();
    expect(s101().pending).toEqual(['menu']);
    failing = false;
    await sim.tick();
    expect(server.of('pos-key-101', '/pos/v1/menu')).toHaveLength(1);
    expect(s101()).toMatchObject({ pending: [], lastError: null, aliveAt: '2026-11-23T09:00:00.000Z' });
    expect(server.of('pos-key-102', '/pos/v1/menu')).toHaveLength(1);
  });

  it('survives the server refusing the credential (401) without throwing', async () => {
    const { server, sim } = await setup({
      script: ({ apiKey }) => (apiKey === 'pos-key-105' ? { status: 401, body: { error: 'unauthorized', message: 'revoked' } } : undefined),
    });
    const s = sim.status().find((x) => x.pointId === '105')!;
    expect(s.pending).toEqual(['menu', 'stopList', 'streets', 'productMappings']);
    expect(s.lastError?.code).toBe('unauthorized');
    expect(server.of('pos-key-106')).toHaveLength(5);
  });

  it('keeps heartbeats and stop-list pushes going on timers, and stop() clears them', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { server, sim } = await setup();
    const count = (path: string) => server.requests.filter((r) => r.path === path).length;
    const n = chain.points.length;
    vi.advanceTimersByTime(30_000);
    await server.until(() => count('/pos/v1/heartbeat') === 2 * n);
    vi.advanceTimersByTime(30_000);
    await server.until(() => count('/pos/v1/heartbeat') === 3 * n && count('/pos/v1/stop-list') === 2 * n);
    await sim.stop();
    const before = server.requests.length;
    vi.advanceTimersByTime(600_000);
    await sim.tick();
    expect(server.requests.length).toBe(before);
  });

  it('refuses a terminal of a point the chain does not have', async () => {
    await expect(
      startPosSimulator({ baseUrl: 'http://127.0.0.1:9', chain, terminals: [{ pointId: '999', apiKey: 'k', apiSecret: 's' }] }),
    ).rejects.toThrow(/point 999/);
  });
});
