import type { Clock, Db } from '@app/shared';
import { isLoyaltyError, type LoyaltyPort } from '../loyalty/loyalty.port.js';
import type { LegMetrics } from '../holds/leg-metrics.js';
import type { StepObserver } from '../common/recovery-points.js';
import { LegsRepo, type HeldLegOrder, type LegRecord } from '../holds/legs.repo.js';
import type { LegLog, LoyaltyHolds } from '../holds/loyalty-holds.js';
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
/** The `held` work list is read in pages of this many legs, at most this many pages per sweep. */
const HELD_PAGE = 500;
const HELD_PAGES = 20;
/** At most this many held legs are acted on per sweep (those that wait are taken out of the list without a limit of their own). */
const HELD_ACTIONS = 500;
/** The next look of a leg that only its order's next move can concern (OrdersRepo.update resets it). */
export const UNTIL_ORDER_MOVES = new Date('9999-12-31T00:00:00Z');

/** What one sweep did (for logs and tests). */
export interface SweepReport {
  readBack: number;
  released: number;
  confirmed: number;
  cancelled: number;
  cancelRequested: number;
  accrued: number;
  accrualsFailed: number;
  /** Held legs claimed and acted on (or re-checked). */
  heldLooked: number;
  /** Held legs taken out of the work list until they are due or their order moves. */
  heldWaiting: number;
}

/**
 * When a held leg of the work list needs the sweeper next (the rules of {@link HoldSweeper.held}, from the order's
 * state read with the leg): `now`, or a time: its 30 minutes are up, or {@link UNTIL_ORDER_MOVES} when only a change
 * of its order can give it something to do (manual review, a cancellation already requested or refused).
 */
export function nextLook(leg: LegRecord, order: HeldLegOrder | null, now: Date): 'now' | Date {
  const due = new Date(leg.updatedAt.getTime() + HOLD_TIMEOUT_MS);
  if (!leg.orderId) return due <= now ? 'now' : due;
  if (!order) return 'now';
  switch (order.state) {
    case 'queued':
      return due <= now ? 'now' : due;
    case 'claimed':
    case 'prepared':
    case 'create_sending':
    case 'reconciliation_required':
      if (order.cancelState !== 'none') return UNTIL_ORDER_MOVES;
      return due <= now ? 'now' : due;
    case 'manual_review':
      return UNTIL_ORDER_MOVES;
    default:
      return 'now'; // created_verified, rejected_final, cancelled: settle
  }
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
      steps: StepObserver;
    },
  ) {}

  async runOnce(): Promise<SweepReport> {
    const rep: SweepReport = {
      readBack: 0,
      released: 0,
      confirmed: 0,
      cancelled: 0,
      cancelRequested: 0,
      accrued: 0,
      accrualsFailed: 0,
      heldLooked: 0,
      heldWaiting: 0,
    };
    if (!this.deps.loyalty) return rep;
    const now = this.deps.clock.now();
    const legs = new LegsRepo(this.deps.db);
    // Each leg is claimed before it is looked at (its next look moved to `later`), so of several instances only
    // one calls the loyalty service for it; the settlement it starts takes the same claim again (`later` is its mark).
    const later = new Date(now.getTime() + DEFER_MS);
    const claim = (leg: LegRecord) => legs.claim(leg.id, leg.state, now, later);
    for (const leg of await legs.stale(['holding'], new Date(now.getTime() - HOLDING_STUCK_MS), 100, now)) {
      if (await claim(leg)) rep.readBack += await this.readBack(leg);
    }
    for (const leg of await legs.stale(['releasing'], new Date(now.getTime() - SETTLE_RETRY_MS), 100, now)) {
      if (await claim(leg)) rep.released += await this.deps.holds.releaseUnlinked([leg], later); // a release claimed before a crash
    }
    await this.heldLegs(now, later, rep);
    for (const leg of await legs.stale(['failed'], new Date(now.getTime() - HOLD_TIMEOUT_MS), 100, now)) {
      if (await claim(leg)) rep.released += await this.releaseUnknown(leg);
    }
    await this.accrue(rep);
    return rep;
  }

  /**
   * The `held` work list: a page of legs with their orders' states; legs that need no action
   * now leave the list in bulk (until their 30 minutes are up, or until their order moves: manual review, a
   * cancellation waiting at the POS), the others are claimed and acted on (at most HELD_ACTIONS per sweep). Pages
   * follow while the list is full, so legs that wait are taken out in one sweep and never hold back one that needs
   * action.
   */
  private async heldLegs(now: Date, later: Date, rep: SweepReport): Promise<void> {
    const legs = new LegsRepo(this.deps.db);
    const before = new Date(now.getTime() - SETTLE_RETRY_MS);
    for (let page = 0; page < HELD_PAGES; page++) {
      const rows = await legs.staleHeld(before, HELD_PAGE, now);
      const waits: { id: string; orderId: string; orderUpdatedAt: Date; until: Date }[] = [];
      const orphans: { id: string; until: Date }[] = [];
      const act: LegRecord[] = [];
      for (const { leg, order } of rows) {
        const next = nextLook(leg, order, now);
        if (next === 'now') act.push(leg);
        else if (order) waits.push({ id: leg.id, orderId: order.id, orderUpdatedAt: order.updatedAt, until: next });
        else orphans.push({ id: leg.id, until: next });
      }
      rep.heldWaiting += (await legs.waitForOrder(waits, now)) + (await legs.deferUnlinked(orphans, now));
      for (const leg of act) {
        if (rep.heldLooked >= HELD_ACTIONS) return; // the rest next sweep (the loyalty write budget is small)
        if (!(await legs.claim(leg.id, 'held', now, later))) continue;
        rep.heldLooked++;
        await this.held(leg, now, later, rep);
        // a leg still held and still ours (nothing to settle, or the order changed meanwhile) is free again at once,
        // so the POS's report settles it without waiting out the claim; the next sweep sees it as it is then
        await legs.unclaim(leg.id, later);
      }
      if (rows.length < HELD_PAGE) return;
    }
  }

  /**
   * A crashed hold call, recorded as the loyalty service has it: held → `held`; never recorded → `failed` (a retry
   * holds with the same key); released meanwhile → `released` (a retry holds with a new key: the old one would only
   * return the released hold); spent → `confirmed`, flagged for a person (no order owns it).
   */
  private async readBack(leg: LegRecord): Promise<number> {
    try {
      const h = await this.deps.loyalty!.getHold(leg.holdKey!);
      const now = this.deps.clock.now();
      const legs = new LegsRepo(this.deps.db);
      if (h && h.status === 'held') await legs.move(leg.id, 'read_back', 'held', now, { holdId: h.holdId, amountMinor: h.amountMinor });
      else if (h && h.status === 'confirmed') await this.deps.holds.spentWithoutOrder(legs, leg, h.holdId, 'read_back');
      else if (h) await legs.move(leg.id, 'read_back', 'released', now, { holdId: h.holdId, error: 'released in loyalty' });
      else await legs.move(leg.id, 'read_back', 'failed', now, { error: 'hold never recorded' });
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

  /** One held leg (claimed with the mark `claim`), by the state of its order as read now. */
  private async held(leg: LegRecord, now: Date, claim: Date, rep: SweepReport): Promise<void> {
    const timedOut = now.getTime() - leg.updatedAt.getTime() >= HOLD_TIMEOUT_MS;
    const order = leg.orderId ? await new OrdersRepo(this.deps.db).byId(leg.orderId) : null;
    if (!order) {
      if (timedOut) rep.released += await this.deps.holds.releaseUnlinked([leg], claim); // orphaned hold
      return;
    }
    switch (order.state) {
      case 'created_verified':
        this.deps.steps.reached('sweep.confirm.after_claim');
        rep.confirmed += await this.deps.holds.settleLegs([leg], 'confirm', claim);
        return;
      case 'rejected_final':
      case 'cancelled':
        this.deps.steps.reached('sweep.release.after_claim');
        rep.released += await this.deps.holds.settleLegs([leg], 'release', claim); // release stuck
        return;
      case 'queued':
        if (timedOut) await this.cancelQueued(order.id, now, claim, rep);
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
  private async cancelQueued(orderId: string, now: Date, claim: Date, rep: SweepReport): Promise<void> {
    const cancelled = await this.deps.db.tx(async (q) => {
      const locked = await new OrdersRepo(q).byId(orderId, true);
      if (locked?.state !== 'queued') return false;
      await transition(q, this.deps.events, locked, 'cancelled', 'hold_timeout', now, { cancelReason: 'other' });
      return true;
    });
    if (!cancelled) return;
    rep.cancelled++;
    this.deps.steps.reached('sweep.cancel_queued.after_commit');
    rep.released += await this.deps.holds.settle(orderId, 'release', claim);
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
    if (!requested) return;
    rep.cancelRequested++;
    this.deps.steps.reached('sweep.request_cancel.after_commit');
  }

  /**
   * Accrues bonus for delivered checkout orders of tenants with loyalty; an unknown outcome is read back first.
   * Failures back off per order (1 min … 12 h); a refusal or the last attempt ends the order's accrual as `failed`
   * (an operator may queue it again: `order accrual --retry`). Accruals of a tenant whose loyalty is off wait as
   * `pending` (they are never dropped) and are counted by age in `delivery_loyalty_accruals_pending`.
   */
  private async accrue(rep: SweepReport): Promise<void> {
    const repo = new OrdersRepo(this.deps.db);
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
        this.deps.steps.reached('sweep.accrue.after_call');
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
