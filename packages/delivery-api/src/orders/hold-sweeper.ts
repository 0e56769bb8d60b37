import type { Clock, Db } from '@app/shared';
import { isLoyaltyError, type LoyaltyPort } from '../loyalty/loyalty.port.js';
import { LegsRepo, type LegRecord } from './legs.repo.js';
import type { LoyaltyHolds } from './loyalty-holds.js';
import type { OrderEvents } from './order-events.js';
import { OrdersRepo, toOrder, toView } from './orders.repo.js';
import { transition } from './transition.js';

/** Unconfirmed holds are acted on after 30 minutes. Spec: POST /v1/orders rule 10, States (hold rows), Limits. */
export const HOLD_TIMEOUT_MS = 30 * 60 * 1000;
/** A `holding` leg older than this is a crashed call: its outcome is read back from the loyalty service. */
export const HOLDING_STUCK_MS = 2 * 60 * 1000;
/** Held legs of settled orders (confirm/release failed earlier) are retried after this. */
const SETTLE_RETRY_MS = 60 * 1000;
/** A leg the sweeper could not act on yet is looked at again after this (keeps the work list moving). */
const DEFER_MS = 60 * 1000;

/** What one sweep did (for logs and tests). */
export interface SweepReport {
  readBack: number;
  released: number;
  confirmed: number;
  cancelled: number;
  cancelRequested: number;
  accrued: number;
}

/**
 * Background worker that implements every hold row of the spec's transitions table by order state, plus crash
 * recovery of `holding` legs and bonus accrual after delivery. Run `runOnce()` on a timer (every 30 s); each step
 * is idempotent, so several instances may run it.
 */
export class HoldSweeper {
  constructor(private readonly deps: { db: Db; clock: Clock; loyalty: LoyaltyPort | null; holds: LoyaltyHolds; events: OrderEvents }) {}

  async runOnce(): Promise<SweepReport> {
    const rep: SweepReport = { readBack: 0, released: 0, confirmed: 0, cancelled: 0, cancelRequested: 0, accrued: 0 };
    if (!this.deps.loyalty) return rep;
    const now = this.deps.clock.now();
    const legs = new LegsRepo(this.deps.db);
    const later = new Date(now.getTime() + DEFER_MS);
    for (const leg of await legs.stale(['holding'], new Date(now.getTime() - HOLDING_STUCK_MS), 100, now)) {
      const n = await this.readBack(leg);
      rep.readBack += n;
      if (!n) await legs.defer(leg.id, later);
    }
    for (const leg of await legs.stale(['held'], new Date(now.getTime() - SETTLE_RETRY_MS), 500, now)) {
      const before = { ...rep };
      await this.held(leg, now, rep);
      if (rep.released === before.released && rep.confirmed === before.confirmed && rep.cancelled === before.cancelled) await legs.defer(leg.id, later);
    }
    for (const leg of await legs.stale(['failed'], new Date(now.getTime() - HOLD_TIMEOUT_MS), 100, now)) {
      const n = await this.releaseUnknown(leg);
      rep.released += n;
      if (!n) await legs.defer(leg.id, later);
    }
    rep.accrued = await this.accrue();
    return rep;
  }

  /** A crashed hold call: held in the loyalty service → `held`; never recorded → `failed` (safe to retry). */
  private async readBack(leg: LegRecord): Promise<number> {
    try {
      const h = await this.deps.loyalty!.getHold(leg.holdKey!);
      const now = this.deps.clock.now();
      const legs = new LegsRepo(this.deps.db);
      if (h && h.status === 'held') await legs.move(leg.id, ['holding'], 'held', now, { holdId: h.holdId, amountMinor: h.amountMinor });
      else if (h && h.status === 'confirmed') await legs.move(leg.id, ['holding'], 'confirmed', now, { holdId: h.holdId });
      else await legs.move(leg.id, ['holding'], 'failed', now, { error: h ? 'released in loyalty' : 'hold never recorded' });
      return 1;
    } catch (err) {
      if (isLoyaltyError(err)) return 0;
      throw err;
    }
  }

  /**
   * A failed leg whose call may have taken effect unseen (timeout after the service committed) and that nobody
   * retried for 30 minutes: read it back and release it if it is held; either way the leg ends `released`.
   */
  private async releaseUnknown(leg: LegRecord): Promise<number> {
    if (leg.orderId) {
      const order = await new OrdersRepo(this.deps.db).byId(leg.orderId);
      if (order?.state === 'manual_review') return 0;
    }
    try {
      const h = await this.deps.loyalty!.getHold(leg.holdKey!);
      if (h && h.status === 'held') await this.deps.loyalty!.release({ holdId: h.holdId, idempotencyKey: `release:${leg.id}` });
      await new LegsRepo(this.deps.db).move(leg.id, ['failed'], 'released', this.deps.clock.now(), { error: h ? 'released after unknown outcome' : 'never held' });
      return h && h.status === 'held' ? 1 : 0;
    } catch (err) {
      if (isLoyaltyError(err)) return 0;
      throw err;
    }
  }

  /** One held leg, by the state of its order. */
  private async held(leg: LegRecord, now: Date, rep: SweepReport): Promise<void> {
    const timedOut = now.getTime() - leg.updatedAt.getTime() >= HOLD_TIMEOUT_MS;
    const order = leg.orderId ? await new OrdersRepo(this.deps.db).byId(leg.orderId) : null;
    if (!order) {
      if (timedOut) rep.released += await this.deps.holds.settleLegs([leg], 'release'); // orphaned hold
      return;
    }
    switch (order.state) {
      case 'created_verified':
        rep.confirmed += await this.deps.holds.settleLegs([leg], 'confirm');
        return;
      case 'rejected_final':
      case 'cancelled':
        rep.released += await this.deps.holds.settleLegs([leg], 'release'); // release stuck
        return;
      case 'queued':
        if (!timedOut) return;
        await this.deps.db.tx(async (q) => {
          const locked = await new OrdersRepo(q).byId(order.id, true);
          if (locked?.state === 'queued') {
            await transition(q, this.deps.events, locked, 'cancelled', 'hold_timeout', now, { cancelReason: 'other' });
            rep.cancelled++;
          }
        });
        rep.released += await this.deps.holds.settle(order.id, 'release');
        return;
      case 'claimed':
      case 'prepared':
      case 'create_sending':
      case 'reconciliation_required':
        if (!timedOut || order.cancelState !== 'none') return;
        await this.deps.db.tx(async (q) => {
          const upd = await new OrdersRepo(q).update(order.id, { cancelState: 'requested', cancelReason: 'other', cancelRequestedAt: now }, now);
          await this.deps.events.emit(q, 'order.cancel_requested', toView(upd), now);
        });
        rep.cancelRequested++;
        return;
      default:
        return; // manual_review: holds stay held, no automatic release
    }
  }

  /** Accrues bonus for delivered checkout orders; an unknown outcome is read back first. */
  private async accrue(): Promise<number> {
    const rows = await this.deps.db.query<Record<string, unknown>>(`SELECT * FROM orders WHERE accrual_state = 'pending' ORDER BY updated_at LIMIT 50`);
    let n = 0;
    for (const order of rows.map(toOrder)) {
      const key = `accrue:${order.id}`;
      try {
        const known = await this.deps.loyalty!.getAccrual(key);
        const res = known ?? (await this.deps.loyalty!.accrue({ idempotencyKey: key, organizationId: order.organizationId, phone: order.guestPhone!, orderRef: order.id, paidMinor: order.paidMinor }));
        const now = this.deps.clock.now();
        await this.deps.db.tx(async (q) => {
          const upd = await new OrdersRepo(q).update(order.id, { accrualState: 'done', accruedMinor: res.accruedMinor }, now);
          await this.deps.events.emit(q, 'order.accrued', toView(upd), now);
        });
        n++;
      } catch (err) {
        if (!isLoyaltyError(err)) throw err;
        if (err.code === 'rejected') await new OrdersRepo(this.deps.db).update(order.id, { accrualState: 'failed' }, this.deps.clock.now());
      }
    }
    return n;
  }
}
