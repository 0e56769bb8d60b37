import type { Clock, Db, IdSource } from '@app/shared';
import type { SecretBox } from '../auth/secret-box.js';
import { ApiError } from '../errors.js';
import { isLoyaltyError, type HoldKind, type LoyaltyDiscount, type LoyaltyError, type LoyaltyPort } from '../loyalty/loyalty.port.js';
import type { CrashPoints } from './crash-points.js';
import type { LegMetrics } from './leg-metrics.js';
import { canMoveLeg } from './leg-states.js';
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
  /** Coupon legs: the discount line the coupon grants (kept with the leg for a retry). */
  discount?: LoyaltyDiscount | null;
}

/** A failed confirm/release is retried by the sweeper at most this many times, then the leg is `settle_failed`. */
export const SETTLE_MAX_ATTEMPTS = 8;
/** Back-off between settlement retries: 1, 2, 4, … minutes, at most 60. */
export const settleRetryDelayMs = (attempt: number) => Math.min(60, 2 ** Math.max(0, attempt - 1)) * 60_000;

/** The smallest logger the holds need (pino's shape). */
export interface LegLog {
  error(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
}

export interface LoyaltyHoldsDeps {
  db: Db;
  loyalty: LoyaltyPort | null;
  clock: Clock;
  ids: IdSource;
  box: SecretBox;
  events: OrderEvents;
  log: LegLog;
  metrics: LegMetrics;
  crash: CrashPoints;
}

/**
 * Loyalty holds in atomic phases (ARCHITECTURE "Orders and loyalty holds"; docs/loyalty.md "Recovery points"):
 * each leg is recorded `holding` before the loyalty call and moved to `held`/`failed` after it, each step its own
 * statement, so a crash between any two steps leaves a row the sweeper can finish or release.
 * Spec: POST /v1/orders rules 8, 10, 11; Loyalty hold legs.
 */
export class LoyaltyHolds {
  constructor(private readonly deps: LoyaltyHoldsDeps) {}

  /**
   * Holds every wanted leg of the attempt. A `held` leg is reused with its recorded amount; a `failed` (or
   * released) leg is retried; a `holding` or `releasing` leg is in progress → 409 hold_in_progress. When the
   * loyalty service refuses a leg definitively, the legs this attempt already holds are released at once (the
   * guest's corrected retry must not find its own coupon reserved).
   * @throws ApiError hold_in_progress, loyalty_rejected (422), loyalty_unavailable (503), rate_limited (429).
   */
  async holdAll(attempt: Attempt, wanted: WantedLeg[], orderRef: string): Promise<LegRecord[]> {
    const out: LegRecord[] = [];
    try {
      for (const w of wanted) out.push(await this.holdOne(attempt, w, orderRef));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'loyalty_rejected') await this.releaseAttempt(attempt);
      throw err;
    }
    return out;
  }

  private async holdOne(attempt: Attempt, w: WantedLeg, orderRef: string): Promise<LegRecord> {
    const legs = new LegsRepo(this.deps.db);
    const now = this.deps.clock.now();
    const holdKey = this.deps.ids.uuid();
    const { leg, created } = await legs.insertHolding(
      attempt,
      {
        id: this.deps.ids.uuid(),
        kind: w.kind,
        amountMinor: w.amountMinor,
        holdKey,
        organizationId: w.organizationId,
        phone: w.phone,
        coupon: w.coupon,
        certificateSerialEnc: w.certificateSerial ? this.deps.box.seal(w.certificateSerial) : null,
        discount: w.discount ?? null,
      },
      now,
    );
    if (created) return this.callHold(legs, leg, w, orderRef);
    if (leg.state === 'held') return leg;
    // the states a retry may hold again come from the leg table (failed, released); others are in progress
    if (!canMoveLeg(leg.state, 'holding', 'retry')) throw new ApiError('hold_in_progress', {}, `${leg.kind} hold of this order is ${leg.state}`);
    // failed: retry with the same idempotency key, so a call that took effect unseen is not held twice;
    // released: a new key, the old hold is finished
    const retried = await legs.move(leg.id, 'retry', 'holding', now, {
      holdKey: leg.state === 'released' ? holdKey : undefined,
      amountMinor: w.amountMinor,
      error: null,
      discount: w.discount ?? null,
    });
    if (!retried) throw new ApiError('hold_in_progress', {}, `${leg.kind} hold of this order is in progress`);
    return this.callHold(legs, retried, w, orderRef);
  }

  private async callHold(legs: LegsRepo, leg: LegRecord, w: WantedLeg, orderRef: string): Promise<LegRecord> {
    if (!this.deps.loyalty) {
      await legs.move(leg.id, 'hold_failed', 'failed', this.deps.clock.now(), { error: 'loyalty not connected' });
      throw new ApiError('loyalty_unavailable', {}, 'loyalty not connected');
    }
    this.deps.crash.at(`hold.before_call.${w.kind}`);
    try {
      const hold = await this.deps.loyalty.hold({
        idempotencyKey: leg.holdKey!,
        kind: w.kind,
        organizationId: w.organizationId,
        phone: w.phone ?? undefined,
        orderRef,
        amountMinor: w.amountMinor,
        coupon: w.coupon ?? undefined,
        certificateSerial: w.certificateSerial ?? undefined,
      });
      this.deps.crash.at(`hold.after_call.${w.kind}`);
      const held = await legs.move(leg.id, 'hold_ok', 'held', this.deps.clock.now(), { holdId: hold.holdId, amountMinor: hold.amountMinor });
      if (!held) throw new ApiError('hold_in_progress', {}, 'leg changed while holding');
      this.deps.crash.at(`hold.after_record.${w.kind}`);
      return held;
    } catch (err) {
      if (!isLoyaltyError(err)) throw err;
      await legs.move(leg.id, 'hold_failed', 'failed', this.deps.clock.now(), { error: `${err.code}: ${err.reason}` });
      if (err.code === 'rejected') throw new ApiError('loyalty_rejected', {}, `loyalty refused the ${w.kind} hold: ${err.reason}`);
      if (err.code === 'rate_limited')
        throw new ApiError('rate_limited', {}, 'loyalty write limit', { 'Retry-After': String(err.retryAfterSeconds ?? 60) });
      throw new ApiError('loyalty_unavailable', {}, `loyalty unavailable during the ${w.kind} hold`);
    }
  }

  /** Releases the `held` legs of an attempt that no order owns (a sibling was rejected). Failures are left to the sweeper. */
  private async releaseAttempt(attempt: Attempt): Promise<void> {
    const held = (await new LegsRepo(this.deps.db).forAttempt(attempt)).filter((l) => l.state === 'held' && l.orderId === null);
    await this.releaseUnlinked(held);
  }

  /**
   * Releases legs that no order owns: each is first claimed `held → releasing` (only while still unlinked), so
   * a concurrent retry of the same body cannot reuse it; then the loyalty release; then `released`. A crash
   * after the claim leaves a `releasing` leg that the sweeper finishes. Returns how many were released.
   */
  async releaseUnlinked(legs: LegRecord[]): Promise<number> {
    let done = 0;
    for (const leg of legs) {
      const claimed =
        leg.state === 'releasing'
          ? leg
          : await new LegsRepo(this.deps.db).move(leg.id, 'claim_release', 'releasing', this.deps.clock.now(), { unlinked: true });
      if (!claimed) continue; // linked to an order meanwhile, or already settled
      if (await this.settleOne(claimed, 'release')) done++;
    }
    return done;
  }

  /**
   * Confirms (spends) or releases the held legs of an order; each success is recorded with its event
   * (`order.loyalty_confirmed` / `order.loyalty_released`) in one transaction. A failure stays for the sweeper
   * (bounded, see {@link SETTLE_MAX_ATTEMPTS}). Returns how many legs were settled.
   */
  async settle(orderId: string, effect: 'confirm' | 'release'): Promise<number> {
    const legs = await new LegsRepo(this.deps.db).forOrder(orderId);
    return this.settleLegs(
      legs.filter((l) => l.state === 'held'),
      effect,
    );
  }

  /** Settles the given held legs of orders. */
  async settleLegs(held: LegRecord[], effect: 'confirm' | 'release'): Promise<number> {
    let done = 0;
    for (const leg of held) if (await this.settleOne(leg, effect)) done++;
    return done;
  }

  private async settleOne(leg: LegRecord, effect: 'confirm' | 'release'): Promise<boolean> {
    if (!this.deps.loyalty) return false;
    this.deps.crash.at(`settle.before_call.${effect}`);
    try {
      const req = { holdId: leg.holdId!, idempotencyKey: `${effect}:${leg.id}` };
      if (effect === 'confirm') await this.deps.loyalty.confirm(req);
      else await this.deps.loyalty.release(req);
    } catch (err) {
      if (!isLoyaltyError(err)) throw err;
      await this.settleFailed(leg, effect, err);
      return false;
    }
    this.deps.crash.at(`settle.after_call.${effect}`);
    const moved = await this.deps.db.tx(async (q) => {
      const m = await new LegsRepo(q).move(leg.id, effect, effect === 'confirm' ? 'confirmed' : 'released', this.deps.clock.now());
      if (m && leg.orderId) {
        const order = await new OrdersRepo(q).byId(leg.orderId);
        if (order)
          await this.deps.events.emit(
            q,
            effect === 'confirm' ? 'order.loyalty_confirmed' : 'order.loyalty_released',
            toView(order),
            this.deps.clock.now(),
          );
      }
      return m;
    });
    return moved !== null;
  }

  /**
   * A confirm/release that failed: counted, retried later with back-off; definitive refusals (the hold is in
   * the other final state, or unknown) and the last allowed attempt make the leg `settle_failed`, logged at error
   * level for a person (operator: `order legs --stuck`).
   */
  private async settleFailed(leg: LegRecord, effect: 'confirm' | 'release', err: LoyaltyError): Promise<void> {
    const now = this.deps.clock.now();
    const legs = new LegsRepo(this.deps.db);
    const why = `${effect} failed: ${err.code}/${err.reason}`;
    const attempts = await legs.recordSettleFailure(leg.id, why, new Date(now.getTime() + settleRetryDelayMs(leg.settleAttempts + 1)));
    if (err.code !== 'rejected' && attempts < SETTLE_MAX_ATTEMPTS) {
      this.deps.log.warn(
        { legId: leg.id, orderId: leg.orderId, kind: leg.kind, attempts, reason: err.reason },
        `loyalty ${effect} failed; will retry`,
      );
      return;
    }
    const gaveUp = await legs.move(leg.id, 'give_up', 'settle_failed', now, { error: why });
    if (!gaveUp) return;
    this.deps.metrics.settleFailed(leg.kind, effect);
    this.deps.log.error(
      {
        legId: leg.id,
        orderId: leg.orderId,
        externalOrderId: leg.externalOrderId,
        kind: leg.kind,
        amountMinor: leg.amountMinor,
        attempts,
        effect,
        reason: err.reason,
      },
      `loyalty ${effect} gave up: the leg needs a person (delivery-operator order legs --stuck)`,
    );
  }
}
