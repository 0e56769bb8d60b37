import type { Clock, Db, IdSource, Queryable } from '@app/shared';
import type { SecretBox } from '../auth/secret-box.js';
import { ApiError } from '../errors.js';
import { isLoyaltyError, type HoldKind, type LoyaltyDiscount, type LoyaltyError, type LoyaltyPort } from '../loyalty/loyalty.port.js';
import type { StepObserver } from '../common/recovery-points.js';
import type { LegMetrics } from './leg-metrics.js';
import { canMoveLeg, type LegState } from './leg-states.js';
import { LegsRepo, type Attempt, type LegRecord } from './legs.repo.js';

/** A leg whose hold was spent although no order owns it: never usable for an order; a person decides. */
const spentWithoutOrder = (kind: HoldKind) =>
  new ApiError('loyalty_rejected', {}, `the ${kind} hold of this order is spent in the loyalty service without an order: support decides`);

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
/** How long one confirm/release may take before another instance may take the leg (the claim window). */
export const SETTLE_CLAIM_MS = 60_000;
/** Back-off between settlement retries: 1, 2, 4, … minutes, at most 60. */
export const settleRetryDelayMs = (attempt: number) => Math.min(60, 2 ** Math.max(0, attempt - 1)) * 60_000;

/** The smallest logger the holds need (pino's shape). */
export interface LegLog {
  error(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
}

/**
 * Told when a leg that belongs to an order was settled, inside the transaction `q` that recorded it (the orders
 * feature writes the order's `order.loyalty_confirmed` / `order.loyalty_released` event there).
 */
export interface SettlementListener {
  settled(q: Queryable, orderId: string, effect: 'confirm' | 'release', at: Date): Promise<void>;
}

export interface LoyaltyHoldsDeps {
  db: Db;
  loyalty: LoyaltyPort | null;
  clock: Clock;
  ids: IdSource;
  box: SecretBox;
  settlements: SettlementListener;
  log: LegLog;
  metrics: LegMetrics;
  steps: StepObserver;
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
    if (leg.state === 'confirmed') throw spentWithoutOrder(leg.kind);
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

  private async callHold(legs: LegsRepo, leg: LegRecord, w: WantedLeg, orderRef: string, renewed = false): Promise<LegRecord> {
    if (!this.deps.loyalty) {
      await legs.move(leg.id, 'hold_failed', 'failed', this.deps.clock.now(), { error: 'loyalty not connected' });
      throw new ApiError('loyalty_unavailable', {}, 'loyalty not connected');
    }
    this.deps.steps.reached(`hold.before_call.${w.kind}`);
    let hold: Awaited<ReturnType<LoyaltyPort['hold']>>;
    try {
      hold = await this.deps.loyalty.hold({
        idempotencyKey: leg.holdKey!,
        kind: w.kind,
        organizationId: w.organizationId,
        phone: w.phone ?? undefined,
        orderRef,
        amountMinor: w.amountMinor,
        coupon: w.coupon ?? undefined,
        certificateSerial: w.certificateSerial ?? undefined,
      });
    } catch (err) {
      if (!isLoyaltyError(err)) throw err;
      await legs.move(leg.id, 'hold_failed', 'failed', this.deps.clock.now(), { error: `${err.code}: ${err.reason}` });
      if (err.code === 'rejected') throw new ApiError('loyalty_rejected', {}, `loyalty refused the ${w.kind} hold: ${err.reason}`);
      if (err.code === 'rate_limited')
        throw new ApiError('rate_limited', {}, 'loyalty write limit', { 'Retry-After': String(err.retryAfterSeconds ?? 60) });
      throw new ApiError('loyalty_unavailable', {}, `loyalty unavailable during the ${w.kind} hold`);
    }
    this.deps.steps.reached(`hold.after_call.${w.kind}`);
    const now = this.deps.clock.now();
    // Recorded as the service answered it: the same key answers the same hold in its current
    // state, so a key whose hold was released meanwhile must not become a `held` leg.
    if (hold.status === 'released') {
      const released = await legs.move(leg.id, 'hold_ok', 'released', now, { holdId: hold.holdId, error: 'hold answered as released' });
      if (!released || renewed) throw new ApiError('hold_in_progress', {}, `${w.kind} hold of this order changed while holding`);
      // a released hold is finished: hold again under a new key, once
      const again = await legs.move(leg.id, 'retry', 'holding', now, { holdKey: this.deps.ids.uuid(), amountMinor: w.amountMinor, error: null });
      if (!again) throw new ApiError('hold_in_progress', {}, `${w.kind} hold of this order is in progress`);
      return this.callHold(legs, again, w, orderRef, true);
    }
    if (hold.status === 'confirmed') {
      await this.spentWithoutOrder(legs, leg, hold.holdId, 'hold_ok');
      throw spentWithoutOrder(w.kind);
    }
    const held = await legs.move(leg.id, 'hold_ok', 'held', now, { holdId: hold.holdId, amountMinor: hold.amountMinor });
    if (!held) throw new ApiError('hold_in_progress', {}, 'leg changed while holding');
    this.deps.steps.reached(`hold.after_record.${w.kind}`);
    return held;
  }

  /**
   * A leg that no order owns whose hold the loyalty service reports as spent (confirmed): recorded `confirmed` and
   * flagged for a person (`order refunds`), never used for an order. Our code confirms only legs of verified orders,
   * so this is an anomaly of the service or of an operator.
   */
  async spentWithoutOrder(legs: LegsRepo, leg: LegRecord, holdId: string, cause: 'hold_ok' | 'read_back'): Promise<void> {
    const now = this.deps.clock.now();
    const moved = await legs.move(leg.id, cause, 'confirmed', now, { holdId, error: 'hold answered as already spent' });
    if (!moved) return;
    await legs.flagLegRefund(leg.id, now, 'the loyalty service reported this order-less hold as spent');
    this.deps.log.error(
      { legId: leg.id, externalOrderId: leg.externalOrderId, kind: leg.kind, amountMinor: leg.amountMinor },
      'loyalty hold of a leg without an order is spent: a person decides the refund (delivery-operator order refunds)',
    );
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
  async releaseUnlinked(legs: LegRecord[], claim?: Date): Promise<number> {
    let done = 0;
    for (const leg of legs) {
      const claimed =
        leg.state === 'releasing'
          ? leg
          : await new LegsRepo(this.deps.db).move(leg.id, 'claim_release', 'releasing', this.deps.clock.now(), { unlinked: true });
      if (!claimed) continue; // linked to an order meanwhile, or already settled
      if (await this.settleOne(claimed, 'release', leg.state === 'releasing' ? claim : undefined)) done++;
    }
    return done;
  }

  /**
   * A person resolves a held or stuck leg of an order under review: the hold is read back from the loyalty service
   * and recorded as it is there (spent → `confirmed`, released or unknown → `released`); one still held is released
   * now. Returns the leg's state; throws when the service does not answer or the release fails (try again).
   */
  async resolveByHand(leg: LegRecord): Promise<LegState> {
    if (!this.deps.loyalty) throw new Error('loyalty is not connected');
    const h = await this.deps.loyalty.getHold(leg.holdKey!);
    const legs = new LegsRepo(this.deps.db);
    const now = this.deps.clock.now();
    const cur = leg.state === 'settle_failed' ? await legs.move(leg.id, 'support', 'held', now, { error: null }) : leg;
    if (cur?.state !== 'held') throw new Error(`leg ${leg.id} changed meanwhile; try again`);
    if (h?.status === 'confirmed') return (await legs.move(leg.id, 'support', 'confirmed', now))?.state ?? 'held';
    if (!h || h.status === 'released')
      return (await legs.move(leg.id, 'support', 'released', now, { error: 'released in loyalty' }))?.state ?? 'held';
    if (await this.settleOne(cur, 'release')) return 'released';
    throw new Error(`leg ${leg.id}: its release failed; try again`);
  }

  /**
   * Confirms (spends) or releases the held legs of an order; each success is recorded with its event
   * (`order.loyalty_confirmed` / `order.loyalty_released`) in one transaction. A failure stays for the sweeper
   * (bounded, see {@link SETTLE_MAX_ATTEMPTS}). Returns how many legs were settled. Each leg is claimed first (the
   * sweeper's compare-and-set, {@link LegsRepo.claim}): a leg another instance is settling is left to it.
   * @param claim the mark of the caller's own claim on legs it already took (the sweeper's).
   */
  async settle(orderId: string, effect: 'confirm' | 'release', claim?: Date): Promise<number> {
    const legs = await new LegsRepo(this.deps.db).forOrder(orderId);
    return this.settleLegs(
      legs.filter((l) => l.state === 'held'),
      effect,
      claim,
    );
  }

  /** Settles the given held legs of orders (each claimed first; `claim` as for {@link settle}). */
  async settleLegs(held: LegRecord[], effect: 'confirm' | 'release', claim?: Date): Promise<number> {
    let done = 0;
    for (const leg of held) if (await this.settleOne(leg, effect, claim)) done++;
    return done;
  }

  /**
   * One confirm/release: the leg is claimed (compare-and-set of `check_after` while it is still in its state, as the
   * sweeper does), so of several instances and paths only one spends a loyalty write on it.
   */
  private async settleOne(leg: LegRecord, effect: 'confirm' | 'release', claim?: Date): Promise<boolean> {
    if (!this.deps.loyalty) return false;
    const at = this.deps.clock.now();
    const until = new Date(at.getTime() + SETTLE_CLAIM_MS);
    if (!(await new LegsRepo(this.deps.db).claim(leg.id, leg.state, at, until, claim))) return false;
    this.deps.steps.reached(`settle.before_call.${effect}`);
    try {
      const req = { holdId: leg.holdId!, idempotencyKey: `${effect}:${leg.id}` };
      if (effect === 'confirm') await this.deps.loyalty.confirm(req);
      else await this.deps.loyalty.release(req);
    } catch (err) {
      if (!isLoyaltyError(err)) throw err;
      await this.settleFailed(leg, effect, err);
      return false;
    }
    this.deps.steps.reached(`settle.after_call.${effect}`);
    const moved = await this.deps.db.tx(async (q) => {
      const m = await new LegsRepo(q).move(leg.id, effect, effect === 'confirm' ? 'confirmed' : 'released', this.deps.clock.now());
      if (m && leg.orderId) await this.deps.settlements.settled(q, leg.orderId, effect, this.deps.clock.now());
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
    if (err.code === 'rate_limited') {
      // the service's write budget is spent, not the leg's chances: look again when it allows, no attempt counted
      await legs.defer(leg.id, new Date(now.getTime() + (err.retryAfterSeconds ?? 60) * 1000), why);
      return;
    }
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
