import type { Clock, Db } from '@app/shared';
import { isLoyaltyError, type LoyaltyPort } from '../loyalty/loyalty.port.js';
import type { LegMetrics } from './leg-metrics.js';
import { LegsRepo, type LegRecord } from './legs.repo.js';
import type { LegLog, LoyaltyHolds } from './loyalty-holds.js';
import type { OrderEvents } from './order-events.js';
import { IN_CREATION_STATES } from './order-states.js';
import { OrdersRepo, toView, type OrderRecord } from './orders.repo.js';
import { transition } from './transition.js';

/** Unconfirmed holds are acted on after 30 minutes. Spec: POST /v1/orders rule 10, States (hold rows), Limits. */
export const HOLD_TIMEOUT_MS = 30 * 60 * 1000;
/** A `holding` leg older than this is a crashed call: its outcome is read back from the loyalty service. */
export const HOLDING_STUCK_MS = 2 * 60 * 1000;
/** Held legs of settled orders (confirm/release failed earlier) and `releasing` legs are retried after this. */
const SETTLE_RETRY_MS = 60 * 1000;
/** A leg the sweeper could not act on yet is looked at again after this (keeps the work list moving). */
const DEFER_MS = 60 * 1000;
/** Accrual attempts before the order leaves the queue as `failed`; the delays between them (minutes). */
export const ACCRUAL_MAX_ATTEMPTS = 8;
const ACCRUAL_DELAYS_MIN = [1, 5, 15, 60, 180, 360, 720];
/** Accruals per sweep (the loyalty service's write budget is small: spec Limits). */
const ACCRUALS_PER_SWEEP = 20;

/** What one sweep did (for logs and tests). */
export interface SweepReport {
  readBack: number;
  released: number;
  confirmed: number;
  cancelled: number;
  cancelRequested: number;
  accrued: number;
  accrualsFailed: number;
}

/**
 * Background worker that implements every hold row of the spec's transitions table by order state, plus crash
 * recovery of `holding` and `releasing` legs and bonus accrual after delivery. Run `runOnce()` on a timer; each
 * step locks and re-checks what it changes, so several instances may run it (docs/loyalty.md "Recovery points").
 */
export class HoldSweeper {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      loyalty: LoyaltyPort | null;
      holds: LoyaltyHolds;
      events: OrderEvents;
      log: LegLog;
      metrics: LegMetrics;
    },
  ) {}

  async runOnce(): Promise<SweepReport> {
    const rep: SweepReport = { readBack: 0, released: 0, confirmed: 0, cancelled: 0, cancelRequested: 0, accrued: 0, accrualsFailed: 0 };
    if (!this.deps.loyalty) return rep;
    const now = this.deps.clock.now();
    const legs = new LegsRepo(this.deps.db);
    // Each leg is claimed before it is looked at (its next look moved to `later`), so of several instances only
    // one calls the loyalty service for it; a leg nothing could be done for yet simply stays deferred.
    const later = new Date(now.getTime() + DEFER_MS);
    const claim = (leg: LegRecord) => legs.claim(leg.id, leg.state, now, later);
    for (const leg of await legs.stale(['holding'], new Date(now.getTime() - HOLDING_STUCK_MS), 100, now)) {
      if (await claim(leg)) rep.readBack += await this.readBack(leg);
    }
    for (const leg of await legs.stale(['releasing'], new Date(now.getTime() - SETTLE_RETRY_MS), 100, now)) {
      if (await claim(leg)) rep.released += await this.deps.holds.releaseUnlinked([leg]); // a release claimed before a crash
    }
    for (const leg of await legs.stale(['held'], new Date(now.getTime() - SETTLE_RETRY_MS), 500, now)) {
      if (await claim(leg)) await this.held(leg, now, rep);
    }
    for (const leg of await legs.stale(['failed'], new Date(now.getTime() - HOLD_TIMEOUT_MS), 100, now)) {
      if (await claim(leg)) rep.released += await this.releaseUnknown(leg);
    }
    await this.accrue(rep);
    return rep;
  }

  /** A crashed hold call: held in the loyalty service → `held`; never recorded → `failed` (safe to retry). */
  private async readBack(leg: LegRecord): Promise<number> {
    try {
      const h = await this.deps.loyalty!.getHold(leg.holdKey!);
      const now = this.deps.clock.now();
      const legs = new LegsRepo(this.deps.db);
      if (h && h.status === 'held') await legs.move(leg.id, 'read_back', 'held', now, { holdId: h.holdId, amountMinor: h.amountMinor });
      else if (h && h.status === 'confirmed') await legs.move(leg.id, 'read_back', 'confirmed', now, { holdId: h.holdId });
      else await legs.move(leg.id, 'read_back', 'failed', now, { error: h ? 'released in loyalty' : 'hold never recorded' });
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
      await new LegsRepo(this.deps.db).move(leg.id, 'release', 'released', this.deps.clock.now(), {
        error: h ? 'released after unknown outcome' : 'never held',
      });
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
      if (timedOut) rep.released += await this.deps.holds.releaseUnlinked([leg]); // orphaned hold
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
        if (timedOut) await this.cancelQueued(order.id, now, rep);
        return;
      case 'claimed':
      case 'prepared':
      case 'create_sending':
      case 'reconciliation_required':
        if (timedOut) await this.requestCancel(order.id, now, rep);
        return;
      default:
        return; // manual_review: holds stay held, no automatic release
    }
  }

  /** queued + 30 min → cancelled and released in the same action; re-checked under the lock (a POS may claim it meanwhile). */
  private async cancelQueued(orderId: string, now: Date, rep: SweepReport): Promise<void> {
    const cancelled = await this.deps.db.tx(async (q) => {
      const locked = await new OrdersRepo(q).byId(orderId, true);
      if (locked?.state !== 'queued') return false;
      await transition(q, this.deps.events, locked, 'cancelled', 'hold_timeout', now, { cancelReason: 'other' });
      return true;
    });
    if (!cancelled) return;
    rep.cancelled++;
    rep.released += await this.deps.holds.settle(orderId, 'release');
  }

  /**
   * In creation + 30 min → cancelState requested (by `hold_timeout`), under the order's lock and only when no
   * cancellation was ever decided or asked for (a partner's request or a POS refusal is never overwritten).
   */
  private async requestCancel(orderId: string, now: Date, rep: SweepReport): Promise<void> {
    const requested = await this.deps.db.tx(async (q) => {
      const repo = new OrdersRepo(q);
      const o = await repo.byId(orderId, true);
      if (!o || !IN_CREATION_STATES.has(o.state) || o.state === 'created_verified' || o.cancelState !== 'none') return false;
      const upd = await repo.update(
        o.id,
        { cancelState: 'requested', cancelReason: 'other', cancelRequestedAt: now, cancelRequestedBy: 'hold_timeout' },
        now,
      );
      await this.deps.events.emit(q, 'order.cancel_requested', toView(upd), now);
      return true;
    });
    if (requested) rep.cancelRequested++;
  }

  /**
   * Accrues bonus for delivered checkout orders of tenants with loyalty; an unknown outcome is read back first.
   * Failures back off per order (1 min … 12 h); a refusal or the last attempt ends the order's accrual as `failed`.
   */
  private async accrue(rep: SweepReport): Promise<void> {
    const repo = new OrdersRepo(this.deps.db);
    const skipped = await repo.skipAccrualsWithoutLoyalty(this.deps.clock.now());
    for (let i = 0; i < skipped; i++) this.deps.metrics.accrualEnded('skipped');
    for (const order of await repo.dueAccruals(this.deps.clock.now(), ACCRUALS_PER_SWEEP)) {
      const key = `accrue:${order.id}`;
      try {
        const known = await this.deps.loyalty!.getAccrual(key);
        const res =
          known ??
          (await this.deps.loyalty!.accrue({
            idempotencyKey: key,
            organizationId: order.organizationId,
            phone: order.guestPhone!,
            orderRef: order.id,
            paidMinor: order.paidMinor,
          }));
        const now = this.deps.clock.now();
        // Another instance may have read the same due order and recorded its accrual first (the loyalty call is
        // idempotent by key, the event is not): record and announce it only while it is still pending.
        const recorded = await this.deps.db.tx(async (q) => {
          const repo = new OrdersRepo(q);
          const locked = await repo.byId(order.id, true);
          if (locked?.accrualState !== 'pending') return false;
          const upd = await repo.update(order.id, { accrualState: 'done', accruedMinor: res.accruedMinor, accrualError: null }, now);
          await this.deps.events.emit(q, 'order.accrued', toView(upd), now);
          return true;
        });
        if (recorded) rep.accrued++;
      } catch (err) {
        if (!isLoyaltyError(err)) throw err;
        if (await this.accrualFailed(order, `${err.code}: ${err.reason}`, err.code === 'rejected')) rep.accrualsFailed++;
      }
    }
  }

  /**
   * Records a failed accrual; returns true when the order's accrual ended (`failed`). Under the order's lock and
   * only when no other instance recorded an outcome since `order` was read (a success is never overwritten, and
   * two instances failing the same due accrual count one attempt).
   */
  private async accrualFailed(order: OrderRecord, why: string, definitive: boolean): Promise<boolean> {
    const now = this.deps.clock.now();
    const attempts = order.accrualAttempts + 1;
    const ended = definitive || attempts >= ACCRUAL_MAX_ATTEMPTS;
    const recorded = await this.deps.db.tx(async (q) => {
      const repo = new OrdersRepo(q);
      const locked = await repo.byId(order.id, true);
      if (locked?.accrualState !== 'pending' || locked.accrualAttempts !== order.accrualAttempts) return false;
      if (ended) {
        await repo.update(order.id, { accrualState: 'failed', accrualAttempts: attempts, accrualError: why }, now);
        return true;
      }
      const delayMin = ACCRUAL_DELAYS_MIN[Math.min(attempts - 1, ACCRUAL_DELAYS_MIN.length - 1)];
      await repo.update(order.id, { accrualAttempts: attempts, accrualError: why, accrualNextAt: new Date(now.getTime() + delayMin * 60_000) }, now);
      return true;
    });
    if (!recorded || !ended) return false;
    this.deps.metrics.accrualEnded('failed');
    this.deps.log.error({ orderId: order.id, externalOrderId: order.externalOrderId, attempts, reason: why }, 'bonus accrual gave up');
    return true;
  }
}
