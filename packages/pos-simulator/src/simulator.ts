import { randomIds, systemClock, type Clock, type IdSource } from '@app/shared';
import type { ChainDescription } from './chain.js';
import { oweMenuIfDue, syncPending, type CatalogContext } from './catalog-sync.js';
import { sendHeartbeat } from './heartbeat.js';
import { toLogger, type SimLog } from './log.js';
import { PosClient, type FetchLike } from './pos-client.js';
import { rotateStopList, type RandomSource } from './stop-list-rotation.js';
import { PUSH_ORDER, Terminal, type PushKind } from './terminal.js';

/** A POS credential of one point's terminal group (issued by `delivery-operator credential issue-pos`). */
export interface TerminalCredential {
  pointId: string;
  apiKey: string;
  apiSecret: string;
}

/** Timer periods in milliseconds (real time). Defaults: heartbeat 30 s, stop-list 60 s, menu 10 min (spec: Limits). */
export interface SimulatorIntervals {
  heartbeatMs: number;
  stopListMs: number;
  menuMs: number;
}

export interface PosSimulatorOptions {
  /** Delivery API base URL, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  chain: ChainDescription;
  /** One entry per simulated terminal group; `pointId` must be a point of `chain`. */
  terminals: TerminalCredential[];
  /** Signing timestamps and "menu due" decisions. */
  clock?: Clock;
  /** `X-Request-ID` values. */
  ids?: IdSource;
  /** Stop-list rotation choices (default Math.random; see seededRandom). */
  random?: RandomSource;
  intervals?: Partial<SimulatorIntervals>;
  /** pino-like logger or a line sink; default: failures to stderr. */
  log?: SimLog;
  fetch?: FetchLike;
}

/** Per-terminal state for operators and tests: pushes still owed, last accepted heartbeat, last failure. */
export interface TerminalStatus {
  pointId: string;
  pending: PushKind[];
  aliveAt: string | null;
  lastError: { what: string; code: string; at: string } | null;
  stopList: { id: string; balance: number }[];
}

/** A running simulator. After `stop()` the other methods do nothing. */
export interface PosSimulator {
  /** Pushes menu, stop-list, streets (when the point has a dictionary), product mappings, then a heartbeat, for every terminal. */
  syncAll(): Promise<void>;
  /** One round at once: rotates each stop-list by one item, re-sends owed and due pushes, sends heartbeats. */
  tick(): Promise<void>;
  /** Clears the timers and waits for calls in flight. */
  stop(): Promise<void>;
  status(): TerminalStatus[];
}

const DEFAULT_INTERVALS: SimulatorIntervals = { heartbeatMs: 30_000, stopListMs: 60_000, menuMs: 600_000 };

/**
 * Starts a POS simulator: a real client of the POS protocol (docs/pos-protocol.md) for each terminal.
 * Resolves after the first `syncAll()`; then timers (unref'd) keep heartbeats, stop-list rotation and menu
 * re-pushes going. Failures are logged and retried on the next round; nothing here throws after start.
 * @throws Error when a terminal names a point that is not in the chain.
 */
export async function startPosSimulator(opts: PosSimulatorOptions): Promise<PosSimulator> {
  const clock = opts.clock ?? systemClock;
  const ids = opts.ids ?? randomIds;
  const random = opts.random ?? Math.random;
  const intervals = { ...DEFAULT_INTERVALS, ...opts.intervals };
  const ctx: CatalogContext = { clock, log: toLogger(opts.log) };
  const pool = [...new Set([...opts.chain.stopList.initial.map((e) => e.id), ...opts.chain.stopList.rotation])];
  const terminals = opts.terminals.map((cred) => {
    const point = opts.chain.points.find((p) => p.pointId === cred.pointId);
    if (!point) throw new Error(`terminal for point ${cred.pointId}: no such point in chain ${opts.chain.tenant.id}`);
    const client = new PosClient({ baseUrl: opts.baseUrl, apiKey: cred.apiKey, apiSecret: cred.apiSecret, fetch: opts.fetch, clock, ids });
    return new Terminal(point, client, opts.chain);
  });
  let stopped = false;

  /** Runs `work` (which returns its number of failed calls) on every terminal, each in its own queue. */
  const eachTerminal = async (work: (t: Terminal) => Promise<number>): Promise<void> => {
    if (stopped) return;
    await Promise.all(terminals.map((t) => t.serial(async () => {
      const failed = await work(t);
      if (failed === 0 && t.pending.size === 0) t.lastError = null;
    })));
  };
  const heartbeat = async (t: Terminal): Promise<number> => ((await sendHeartbeat(t, ctx)) ? 0 : 1);
  // Rotation draws from `random` synchronously in terminal order, so a seeded source gives the same lists.
  const rotateAll = (): void => {
    if (stopped) return;
    for (const t of terminals) {
      const { next, change } = rotateStopList(t.stopList, pool, random);
      if (!change) continue;
      t.stopList = next;
      t.owe('stopList');
      ctx.log.info({ pointId: t.pointId, ...change }, 'stop-list changed');
    }
  };

  const sim: PosSimulator = {
    syncAll: () => eachTerminal(async (t) => {
      t.owe(...PUSH_ORDER);
      const failed = await syncPending(t, ctx);
      // Heartbeat last: the terminal reports alive only once its catalog is on the server.
      return failed + (await heartbeat(t));
    }),
    tick: () => {
      rotateAll();
      return eachTerminal(async (t) => {
        oweMenuIfDue(t, clock.now(), intervals.menuMs);
        const failed = await syncPending(t, ctx);
        return failed + (await heartbeat(t));
      });
    },
    stop: async () => {
      stopped = true;
      timers.forEach(clearInterval);
      await Promise.all(terminals.map((t) => t.idle()));
    },
    status: () => terminals.map((t) => statusOf(t)),
  };

  const timers: NodeJS.Timeout[] = [];
  await sim.syncAll();
  const every = (ms: number, round: () => Promise<void>): void => {
    const timer = setInterval(() => void round(), ms);
    timer.unref();
    timers.push(timer);
  };
  every(intervals.heartbeatMs, () => eachTerminal(heartbeat));
  every(intervals.stopListMs, () => {
    rotateAll();
    // Also retries whatever else is owed, so a failed push waits at most one stop-list period.
    return eachTerminal((t) => syncPending(t, ctx));
  });
  every(intervals.menuMs, () => eachTerminal((t) => {
    t.owe('menu');
    return syncPending(t, ctx);
  }));
  return sim;
}

function statusOf(t: Terminal): TerminalStatus {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    pointId: t.pointId,
    pending: PUSH_ORDER.filter((k) => t.pending.has(k)),
    aliveAt: iso(t.aliveAt),
    lastError: t.lastError && { ...t.lastError, at: iso(t.lastError.at)! },
    stopList: t.stopList.map((e) => ({ ...e })),
  };
}
