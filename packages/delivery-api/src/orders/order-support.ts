import type { Clock, Db } from '@app/shared';
import { OperatorError } from '../errors.js';
import type { LoyaltyHolds } from '../holds/loyalty-holds.js';
import type { OrderEvents } from './order-events.js';
import { holdEffectOf } from './order-states.js';
import type { OrderView } from '@app/delivery-contract';
import { OrdersRepo, toView } from './orders.repo.js';
import { LegsRepo } from '../holds/legs.repo.js';
import { transition } from './transition.js';

/**
 * What support does by hand (spec: States — "order goes to manual review", "rejected_final"; POST /v1/orders
 * rule 10: "in rare cases support releases the hold manually"). Every move goes through the transition table.
 */
export class OrderSupportService {
  constructor(private readonly deps: { db: Db; clock: Clock; events: OrderEvents; holds: LoyaltyHolds }) {}

  /** Order view with its hold legs (no certificate serials), refund flags and accrual. */
  async show(orderId: string): Promise<{
    order: OrderView;
    legs: { legId: string; kind: string; state: string; amountMinor: number; refund: string | null }[];
    accrual: { state: string; attempts: number; error: string | null };
  }> {
    const o = await new OrdersRepo(this.deps.db).byId(orderId);
    if (!o) throw new OperatorError(`no order ${orderId}`);
    const legs = await new LegsRepo(this.deps.db).forOrder(orderId);
    return {
      order: toView(o),
      legs: legs.map((l) => ({ legId: l.id, kind: l.kind, state: l.state, amountMinor: l.amountMinor, refund: l.refundState })),
      accrual: { state: o.accrualState, attempts: o.accrualAttempts, error: o.accrualError },
    };
  }

  /**
   * Legs whose loyalty spend a person must decide on (docs/loyalty.md "Cancellation of a verified order"): the POS
   * cancelled the order after it was verified, or the loyalty service reported an order-less hold as spent.
   */
  async refunds(): Promise<
    {
      legId: string;
      orderId: string | null;
      externalOrderId: string;
      kind: string;
      state: string;
      amountMinor: number;
      why: string | null;
      since: string | null;
    }[]
  > {
    return (await new LegsRepo(this.deps.db).refundsRequired()).map((l) => ({
      legId: l.id,
      orderId: l.orderId,
      externalOrderId: l.externalOrderId,
      kind: l.kind,
      state: l.state,
      amountMinor: l.amountMinor,
      why: l.refundNote,
      since: l.refundFlaggedAt?.toISOString() ?? null,
    }));
  }

  /**
   * Records that a person decided a flagged leg's refund (reversed the spend in the loyalty service by hand, or
   * decided not to): the leg leaves the list. A leg still held or stuck is first resolved by what the loyalty
   * service has (a confirm may have taken effect unseen): spent → confirmed, otherwise released.
   */
  async refundDone(legId: string, note: string): Promise<{ legId: string; refund: string; state: string }> {
    const legs = new LegsRepo(this.deps.db);
    const [flagged] = (await legs.refundsRequired(10_000)).filter((l) => l.id === legId);
    if (!flagged) throw new OperatorError(`leg ${legId} has no refund to decide`);
    if (flagged.state === 'held' || flagged.state === 'settle_failed') {
      try {
        await this.deps.holds.resolveByHand(flagged);
      } catch (err) {
        throw new OperatorError(`leg ${legId} could not be resolved (${(err as Error).message}); try again`);
      }
    }
    const done = await legs.refundDone(legId, `${this.deps.clock.now().toISOString()} ${note}`);
    if (!done) throw new OperatorError(`leg ${legId} has no refund to decide`);
    return { legId, refund: 'done', state: done.state };
  }

  /** Accruals waiting (`pending`, with the reason they wait) or given up (`failed`), oldest first. */
  async accruals(state: 'pending' | 'failed') {
    return (await new OrdersRepo(this.deps.db).accruals(state)).map((o) => ({
      orderId: o.id,
      externalOrderId: o.externalOrderId,
      paidMinor: o.paidMinor,
      attempts: o.accrualAttempts,
      error: o.accrualError,
      nextAt: o.accrualNextAt?.toISOString() ?? null,
      loyaltyEnabled: o.loyaltyEnabled,
      since: o.updatedAt.toISOString(),
    }));
  }

  /** Queues a failed accrual again with fresh attempts; the sweeper accrues it (idempotent by key at loyalty). */
  async retryAccrual(orderId: string): Promise<{ orderId: string; accrual: string }> {
    const o = await new OrdersRepo(this.deps.db).retryAccrual(orderId, this.deps.clock.now());
    if (!o) throw new OperatorError(`order ${orderId} has no failed accrual`);
    return { orderId, accrual: o.accrualState };
  }

  /** Closes the order manually after review: `manual_review`; holds stay held (no automatic release). */
  async manualReview(orderId: string): Promise<OrderView> {
    return this.move(orderId, 'manual_review');
  }

  /** Support refuses the order definitively: `rejected_final`; holds are released. */
  async reject(orderId: string): Promise<OrderView> {
    return this.move(orderId, 'rejected_final');
  }

  /** Legs whose confirm/release gave up (`settle_failed`), for a person to look at. Amounts in kopecks. */
  async stuckLegs(): Promise<
    {
      legId: string;
      orderId: string | null;
      externalOrderId: string;
      kind: string;
      amountMinor: number;
      attempts: number;
      lastError: string | null;
      since: string;
    }[]
  > {
    return (await new LegsRepo(this.deps.db).stuck()).map((l) => ({
      legId: l.id,
      orderId: l.orderId,
      externalOrderId: l.externalOrderId,
      kind: l.kind,
      amountMinor: l.amountMinor,
      attempts: l.settleAttempts,
      lastError: l.lastError,
      since: l.updatedAt.toISOString(),
    }));
  }

  /** Puts a stuck leg back to `held`: the sweeper settles it again by its order's state on its next run. */
  async retrySettlement(legId: string): Promise<{ legId: string; state: string }> {
    const moved = await new LegsRepo(this.deps.db).move(legId, 'support', 'held', this.deps.clock.now(), { error: null });
    if (!moved) throw new OperatorError(`leg ${legId} is not settle_failed`);
    return { legId, state: moved.state };
  }

  /** Releases the order's held loyalty legs by hand (e.g. after manual review). Returns how many were released. */
  async releaseHolds(orderId: string): Promise<number> {
    if (!(await new OrdersRepo(this.deps.db).byId(orderId))) throw new OperatorError(`no order ${orderId}`);
    return this.deps.holds.settle(orderId, 'release');
  }

  private async move(orderId: string, to: 'manual_review' | 'rejected_final'): Promise<OrderView> {
    const now = this.deps.clock.now();
    const updated = await this.deps.db.tx(async (q) => {
      const o = await new OrdersRepo(q).byId(orderId, true);
      if (!o) throw new OperatorError(`no order ${orderId}`);
      return transition(q, this.deps.events, o, to, 'support', now);
    });
    const effect = holdEffectOf(updated.state);
    if (effect !== 'keep') await this.deps.holds.settle(updated.id, effect);
    return toView(updated);
  }
}
