import { randomIds, systemClock, type Clock, type IdSource } from '@app/shared';
import type { ChainDescription } from './chain.js';
import { oweMenuIfDue, syncPending, type CatalogContext } from './catalog-sync.js';
import { sendHeartbeat } from './heartbeat.js';
import { toLogger, type SimLog } from './log.js';
import { runOrderRound, type OrderFlowContext } from './order-flow.js';
import { PosClient, type FetchLike } from './pos-client.js';
import type { DeliveryStatus } from './pos-orders.types.js';
import { refuseTagged, type RefusalRule, type SimOrder } from './sim-order.js';
import { rotateStopList, type RandomSource } from './stop-list-rotation.js';
import { PUSH_ORDER, Terminal, type PushKind } from './terminal.js';

/** A POS credential of one point's terminal group (issued by `delivery-operator credential issue-pos`). */
export interface TerminalCredential {
  pointId: string;
  apiKey: string;
  apiSecret: string;
}

/**
 * Timer periods in milliseconds (real time). Defaults: heartbeat 30 s, stop-list 60 s, menu 10 min (spec: Limits),
 * order round 5 s (claims, reports and cancellations of the terminals of collecting points).
 */
export interface SimulatorIntervals {
  heartbeatMs: number;
  stopListMs: number;
  menuMs: number;
  ordersMs: number;
}

export interface PosSimulatorOptions {
  /** Delivery API base URL, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  chain: ChainDescription;
  /** One entry per simulated terminal group; `pointId` must be a point of `chain`. */
  terminals: TerminalCredential[];
  /** Signing timestamps and "menu due" decisions. */
  clock?: Clock;
  /** `X-Request-ID` values, and the posOrderId/posDeliveryId of created orders. */
  ids?: IdSource;
  /** Stop-list rotation choices (default Math.random; see seededRandom). */
  random?: RandomSource;
  intervals?: Partial<SimulatorIntervals>;
  /** Which claimed orders the restaurant refuses (`rejected_final`); default: the comment contains `#refuse`. */
  refuse?: RefusalRule;
  /** Clock milliseconds between two delivery statuses of a created order (default 20 000). */
  deliveryStepMs?: number;
  /** Orders claimed per round and terminal, 1..50 (default 10). */
  claimLimit?: number;
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
  /** Orders the terminal claimed (collecting points only), in claim order. */
  orders: SimOrderStatus[];
}

/** One claimed order as the simulated POS sees it: last accepted creation state and delivery status. */
export interface SimOrderStatus {
  orderId: string;
  state: SimOrder['state'];
  posOrderId: string;
  deliveryStatus: DeliveryStatus | null;
  cancelled: boolean;
}

/** A running simulator. After `stop()` the other methods do nothing. */
export interface PosSimulator {
  /** Pushes menu, stop-list, streets (when the point has a dictionary), product mappings, then a heartbeat, for every terminal. */
  syncAll(): Promise<void>;
  /**
   * One round at once: rotates each stop-list by one item, re-sends owed and due pushes, sends heartbeats, then
   * runs the order round of collecting terminals (cancellations, claims, state and delivery-status reports).
   */
  tick(): Promise<void>;
  /** Clears the timers and waits for calls in flight. */
  stop(): Promise<void>;
  status(): TerminalStatus[];
}

const DEFAULT_INTERVALS: SimulatorIntervals = { heartbeatMs: 30_000, stopListMs: 60_000, menuMs: 600_000, ordersMs: 5_000 };

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
  const orderCtx: OrderFlowContext = {
    clock,
    ids,
    log: ctx.log,
    refuse: opts.refuse ?? refuseTagged,
    deliveryStepMs: opts.deliveryStepMs ?? 20_000,
    claimLimit: opts.claimLimit ?? 10,
  };
  const pool = [...new Set([...opts.chain.stopList.initial.map((e) => e.id), ...opts.chain.stopList.rotation])];
  const terminals = opts.terminals.map((cred) => {
    const point = opts.chain.points.find((p) => p.pointId === cred.pointId);
    if (!point) throw new Error(`terminal for point ${cred.pointId}: no such point in chain ${opts.chain.tenant.id}`);
    const client = new PosClient({ baseUrl: opts.baseUrl, apiKey: cred.apiKey, apiSecret: cred.apiSecret, fetch: opts.fetch, clock, ids });
    return new Terminal(point, client, opts.chain);
  });
  // Spec: only the points whose POS collects the source's orders claim them; the others leave them queued.
  const collecting = terminals.filter((t) => t.point.collectsOrders);
  let stopped = false;

  /** Runs `work` (which returns its number of failed calls) on every terminal of `which`, each in its own queue. */
  const eachTerminal = async (work: (t: Terminal) => Promise<number>, which: Terminal[] = terminals): Promise<void> => {
    if (stopped) return;
    await Promise.all(
      which.map((t) =>
        t.serial(async () => {
          const failed = await work(t);
          if (failed === 0 && t.pending.size === 0) t.lastError = null;
        }),
      ),
    );
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
    syncAll: () =>
      eachTerminal(async (t) => {
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
        return failed + (await heartbeat(t)) + (t.point.collectsOrders ? await runOrderRound(t, orderCtx) : 0);
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
  every(intervals.menuMs, () =>
    eachTerminal((t) => {
      t.owe('menu');
      return syncPending(t, ctx);
    }),
  );
  every(intervals.ordersMs, () => eachTerminal((t) => runOrderRound(t, orderCtx), collecting));
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
    orders: [...t.orders.values()].map((o) => ({
      orderId: o.orderId,
      state: o.state,
      posOrderId: o.posOrderId,
      deliveryStatus: o.deliveryStatus,
      cancelled: o.cancelled,
    })),
  };
}
