import type { ChainDescription, ChainPoint, StopListEntry } from './chain.js';
import type { PosClient } from './pos-client.js';
import type { SimOrder } from './sim-order.js';

/** A catalog document a terminal pushes. */
export type PushKind = 'menu' | 'stopList' | 'streets' | 'productMappings';

/** Push order: the menu first so the stop-list and mappings refer to known products. */
export const PUSH_ORDER: readonly PushKind[] = ['menu', 'stopList', 'streets', 'productMappings'];

/**
 * One simulated POS terminal group: its point, its signed client and the state it owes the server.
 * All calls of one terminal run one after another (`serial`) so a timer round never overlaps a retry.
 */
export class Terminal {
  /** Pushes not yet accepted by the server (never sent, or failed and to be retried on the next round). */
  readonly pending = new Set<PushKind>();
  /** The full current stop-list of this terminal (starts as the chain's initial one). */
  stopList: StopListEntry[];
  /** Clock time (ms since epoch, UTC) of the last accepted menu push; null before the first. */
  menuPushedAt: number | null = null;
  /** Clock time (ms) of the last accepted heartbeat; null before the first. */
  aliveAt: number | null = null;
  /** Last failure of any call, for status reports; cleared by a round in which every call succeeded. */
  lastError: { what: string; code: string; at: number } | null = null;
  /** Orders this terminal claimed, by order id (memory only; see SimOrder). Used only when the point collects orders. */
  readonly orders = new Map<string, SimOrder>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly point: ChainPoint,
    readonly client: PosClient,
    readonly chain: ChainDescription,
  ) {
    this.stopList = chain.stopList.initial.map((e) => ({ ...e }));
  }

  get pointId(): string {
    return this.point.pointId;
  }

  /** Which pushes this terminal makes at all: no street dictionary push when the POS has none. */
  owes(kind: PushKind): boolean {
    return kind !== 'streets' || this.point.streetsKey !== null;
  }

  /** Marks pushes as owed (skipping the ones this terminal never makes). */
  owe(...kinds: PushKind[]): void {
    for (const k of kinds) if (this.owes(k)) this.pending.add(k);
  }

  /** Runs `fn` after every call queued before it on this terminal; a failure does not block the queue. */
  serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Resolves when everything queued so far has finished. */
  idle(): Promise<void> {
    return this.queue.then(() => undefined);
  }
}
