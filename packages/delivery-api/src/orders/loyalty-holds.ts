import type { Clock, Db, IdSource } from '@app/shared';
import type { SecretBox } from '../auth/secret-box.js';
import { ApiError } from '../errors.js';
import { isLoyaltyError, type HoldKind, type LoyaltyPort } from '../loyalty/loyalty.port.js';
import type { OrderEvents } from './order-events.js';
import { LegsRepo, type Attempt, type LegRecord } from './legs.repo.js';
import { OrdersRepo, toView } from './orders.repo.js';

/** A leg the order needs: what to hold, in kopecks. */
export interface WantedLeg {
  kind: HoldKind;
  amountMinor: number;
  organizationId: string;
  phone: string | null;
  coupon: string | null;
  certificateSerial: string | null;
}

/**
 * Loyalty holds in atomic phases (ARCHITECTURE "Orders and loyalty holds"): each leg is recorded `holding` before
 * the loyalty call and moved to `held`/`failed` after it, each step its own statement, so a crash between any
 * two steps leaves a row the sweeper can finish or release. Spec: POST /v1/orders rules 8, 10, 11; Loyalty hold legs.
 */
export class LoyaltyHolds {
  constructor(private readonly deps: { db: Db; loyalty: LoyaltyPort | null; clock: Clock; ids: IdSource; box: SecretBox; events: OrderEvents }) {}

  /**
   * Holds every wanted leg of the attempt. A `held` leg is reused with its recorded amount; a `failed` (or
   * released orphan) leg is retried; a `holding` leg is in progress → 409 hold_in_progress.
   * @throws ApiError hold_in_progress, loyalty_rejected (422), loyalty_unavailable (503), rate_limited (429).
   */
  async holdAll(attempt: Attempt, wanted: WantedLeg[], orderRef: string): Promise<LegRecord[]> {
    const legs = new LegsRepo(this.deps.db);
    const out: LegRecord[] = [];
    for (const w of wanted) {
      const now = this.deps.clock.now();
      const holdKey = this.deps.ids.uuid();
      const { leg, created } = await legs.insertHolding(
        attempt,
        {
          id: this.deps.ids.uuid(), kind: w.kind, amountMinor: w.amountMinor, holdKey, organizationId: w.organizationId, phone: w.phone,
          coupon: w.coupon, certificateSerialEnc: w.certificateSerial ? this.deps.box.seal(w.certificateSerial) : null,
        },
        now,
      );
      if (!created) {
        if (leg.state === 'held') {
          out.push(leg);
          continue;
        }
        if (leg.state === 'holding') throw new ApiError('hold_in_progress', {}, `${leg.kind} hold of this order is in progress`);
        // failed: retry with the same idempotency key, so a call that took effect unseen is not held twice;
        // released (an orphan the sweeper gave back): a new key, the old hold is finished
        const retried = await legs.move(leg.id, ['failed', 'released'], 'holding', now, {
          holdKey: leg.state === 'released' ? holdKey : undefined, amountMinor: w.amountMinor, error: null,
        });
        if (!retried) throw new ApiError('hold_in_progress', {}, `${leg.kind} hold of this order is in progress`);
        out.push(await this.callHold(legs, retried, w, orderRef));
        continue;
      }
      out.push(await this.callHold(legs, leg, w, orderRef));
    }
    return out;
  }

  private async callHold(legs: LegsRepo, leg: LegRecord, w: WantedLeg, orderRef: string): Promise<LegRecord> {
    if (!this.deps.loyalty) {
      await legs.move(leg.id, ['holding'], 'failed', this.deps.clock.now(), { error: 'loyalty not connected' });
      throw new ApiError('loyalty_unavailable', {}, 'loyalty not connected');
    }
    try {
      const hold = await this.deps.loyalty.hold({
        idempotencyKey: leg.holdKey!, kind: w.kind, organizationId: w.organizationId, phone: w.phone ?? undefined, orderRef,
        amountMinor: w.amountMinor, coupon: w.coupon ?? undefined, certificateSerial: w.certificateSerial ?? undefined,
      });
      const held = await legs.move(leg.id, ['holding'], 'held', this.deps.clock.now(), { holdId: hold.holdId, amountMinor: hold.amountMinor });
      if (!held) throw new ApiError('hold_in_progress', {}, 'leg changed while holding');
      return held;
    } catch (err) {
      if (!isLoyaltyError(err)) throw err;
      await legs.move(leg.id, ['holding'], 'failed', this.deps.clock.now(), { error: `${err.code}: ${err.reason}` });
      if (err.code === 'rejected') throw new ApiError('loyalty_rejected', {}, `loyalty refused the ${w.kind} hold: ${err.reason}`);
      if (err.code === 'rate_limited') throw new ApiError('rate_limited', {}, 'loyalty write limit', { 'Retry-After': String(err.retryAfterSeconds ?? 60) });
      throw new ApiError('loyalty_unavailable', {}, `loyalty unavailable during the ${w.kind} hold`);
    }
  }

  /**
   * Confirms (spends) or releases the held legs of an order; each success is recorded with its event
   * (`order.loyalty_confirmed` / `order.loyalty_released`) in one transaction. Failures stay `held` for the sweeper.
   * Returns how many legs were settled.
   */
  async settle(orderId: string, effect: 'confirm' | 'release'): Promise<number> {
    const legs = await new LegsRepo(this.deps.db).forOrder(orderId);
    return this.settleLegs(legs.filter((l) => l.state === 'held'), effect);
  }

  /** Settles the given held legs (also orphans without an order). */
  async settleLegs(held: LegRecord[], effect: 'confirm' | 'release'): Promise<number> {
    if (!this.deps.loyalty || held.length === 0) return 0;
    let done = 0;
    for (const leg of held) {
      try {
        const req = { holdId: leg.holdId!, idempotencyKey: `${effect}:${leg.id}` };
        if (effect === 'confirm') await this.deps.loyalty.confirm(req);
        else await this.deps.loyalty.release(req);
      } catch (err) {
        if (!isLoyaltyError(err)) throw err;
        continue; // stays held; the sweeper retries
      }
      await this.deps.db.tx(async (q) => {
        const moved = await new LegsRepo(q).move(leg.id, ['held'], effect === 'confirm' ? 'confirmed' : 'released', this.deps.clock.now());
        if (moved && leg.orderId) {
          const order = await new OrdersRepo(q).byId(leg.orderId);
          if (order) await this.deps.events.emit(q, effect === 'confirm' ? 'order.loyalty_confirmed' : 'order.loyalty_released', toView(order), this.deps.clock.now());
        }
      });
      done++;
    }
    return done;
  }
}
