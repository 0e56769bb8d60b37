import type { Clock, Db, IdSource, Queryable } from '@app/shared';
import type { Credential } from '../auth/credentials.repo.js';
import { ApiError, invalid } from '../errors.js';
import { LegsRepo, type LegRecord } from '../holds/legs.repo.js';
import type { LegLog, LoyaltyHolds } from '../holds/loyalty-holds.js';
import type { OrderEvents } from '../orders/order-events.js';
import type { StepObserver } from '../common/recovery-points.js';
import { holdEffectOf } from '../orders/order-states.js';
import type { OrderState } from '@app/delivery-contract';
import { OrdersRepo, toView, type OrderRecord } from '../orders/orders.repo.js';
import { transition } from '../orders/transition.js';
import type { CancellationRequest, CancelResultReport, ClaimedOrder, DeliveryStatusReport, StateReport } from '@app/delivery-contract';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A claim lease: the POS must report within it or the order returns to the queue. */
export const CLAIM_LEASE_SECONDS = 120;
/** Cancellations are executed by the POS plugin only in these states (prepared/reconciliation: queued, not executed). */
const CANCEL_DISPATCH_STATES: OrderState[] = ['claimed', 'create_sending', 'created_verified'];

/**
 * The POS plugin's side of the order flow, scoped to the terminal group of its credential.
 * Spec: issue "POS order flow", ARCHITECTURE "POS protocol"; docs/pos-protocol.md.
 */
export class PosOrdersService {
  constructor(
    private readonly deps: { db: Db; clock: Clock; ids: IdSource; events: OrderEvents; holds: LoyaltyHolds; steps: StepObserver; log?: LegLog },
  ) {}

  /**
   * Claims up to `limit` queued orders of the route with a lease; expired claims go back to the queue first. A
   * claimed order with a pending cancellation does not: the POS that claimed it may still be creating it, so it
   * keeps the order and its claim (reports under it are accepted), and gets the cancellation handed out; its answer
   * decides (docs/loyalty.md "Claim expiry"). Nothing is cancelled or released because a lease ran out.
   */
  async claim(cred: Credential, limit: number): Promise<ClaimedOrder[]> {
    const now = this.deps.clock.now();
    const expires = new Date(now.getTime() + CLAIM_LEASE_SECONDS * 1000);
    const claimed = await this.deps.db.tx(async (q) => {
      const repo = new OrdersRepo(q);
      for (const expired of await repo.expiredClaims(cred.organizationId!, cred.terminalGroupId!, now)) {
        await transition(q, this.deps.events, expired, 'queued', 'claim_expired', now, { claimId: null, claimExpiresAt: null });
      }
      const out: ClaimedOrder[] = [];
      for (const queued of await repo.claimable(cred.organizationId!, cred.terminalGroupId!, limit)) {
        const claimId = this.deps.ids.uuid();
        const o = await transition(q, this.deps.events, queued, 'claimed', 'pos', now, { claimId, claimExpiresAt: expires });
        out.push({ orderId: o.id, claimId, claimExpiresAt: expires.toISOString(), stableId: o.id, order: o.posPayload });
      }
      this.deps.steps.reached('claim.before_commit');
      return out;
    });
    this.deps.steps.reached('claim.after_commit');
    return claimed;
  }

  /**
   * A state report. Checks scope (404 outside the route), the stable id (409 stable_id_mismatch), the claim (409
   * invalid_or_expired_claim) and the transition table (409 invalid_state_transition). A repeat of the current
   * state with the same claim is answered without change. Holds are confirmed/released after the commit.
   */
  async report(cred: Credential, orderId: string, r: StateReport) {
    const now = this.deps.clock.now();
    const order = await this.deps.db.tx(async (q) => {
      const o = await this.scoped(q, cred, orderId);
      if (r.stableId !== o.id) throw new ApiError('stable_id_mismatch', {}, 'stableId does not match the order');
      if (o.posOrderId && r.posOrderId && r.posOrderId !== o.posOrderId)
        throw new ApiError('stable_id_mismatch', {}, 'posOrderId differs from the one reported before');
      // the lease of an order with a pending cancellation does not run out (see claim): its POS may report late
      if (o.claimId !== r.claimId || (o.state === 'claimed' && o.claimExpiresAt! < now && o.cancelState !== 'requested'))
        throw new ApiError('invalid_or_expired_claim', {}, 'claim is not current');
      if (o.state === r.state) return null;
      if (r.state === 'created_verified' && !r.posOrderId && !o.posOrderId) throw invalid('created_verified needs posOrderId');
      // a cancellation the hold sweeper asked for (not the partner) is withdrawn once the POS verified the order —
      // the holds are confirmed now, and cancelling would leave the guest's spent coupon on a cancelled order — but
      // only while the POS was never handed it: one already handed out stays requested, and the POS's result is
      // accepted when it comes (cancelResult: to manual_review when the spend is confirmed)
      const withdraw =
        r.state === 'created_verified' && o.cancelState === 'requested' && o.cancelRequestedBy === 'hold_timeout' && o.cancelDispatchedAt === null;
      const moved = await transition(q, this.deps.events, o, r.state, 'pos', now, {
        claimExpiresAt: new Date(now.getTime() + CLAIM_LEASE_SECONDS * 1000),
        ...(r.posOrderId ? { posOrderId: r.posOrderId } : {}),
        ...(r.posDeliveryId ? { posDeliveryId: r.posDeliveryId } : {}),
        ...(withdraw ? { cancelState: 'none', cancelRequestedBy: null, cancelDispatchedAt: null } : {}),
      });
      if (withdraw) await this.deps.events.emit(q, 'order.cancel_result', toView(moved), now);
      return moved;
    });
    this.deps.steps.reached('report.after_commit');
    if (!order) return toView((await new OrdersRepo(this.deps.db).byId(orderId))!);
    const effect = holdEffectOf(order.state);
    if (effect !== 'keep') await this.deps.holds.settle(order.id, effect);
    return toView(order);
  }

  /**
   * A delivery status report (docs/loyalty.md "Delivery statuses after a cancellation"): any status of a
   * `created_verified` order, where Delivered/Closed of a checkout order schedules the bonus accrual; of a
   * `manual_review` order that the POS created, any status, recorded for the person deciding it, never an accrual;
   * of a `cancelled` order, only `Cancelled` (what the POS shows after executing the cancellation). Anything else
   * is 409 invalid_state_transition.
   */
  async deliveryStatus(cred: Credential, orderId: string, r: DeliveryStatusReport) {
    const now = this.deps.clock.now();
    return this.deps.db.tx(async (q) => {
      const o = await this.scoped(q, cred, orderId);
      const accepted =
        o.state === 'created_verified' ||
        (o.state === 'manual_review' && o.posOrderId !== null) ||
        (o.state === 'cancelled' && r.status === 'Cancelled');
      if (!accepted) {
        throw new ApiError(
          'invalid_state_transition',
          {},
          o.state === 'cancelled' ? 'a cancelled order takes only the delivery status Cancelled' : 'delivery status before the order was created',
        );
      }
      if (o.deliveryStatus === r.status) return toView(o);
      const accrue =
        o.state === 'created_verified' &&
        (r.status === 'Delivered' || r.status === 'Closed') &&
        o.kind === 'checkout' &&
        o.accrualState === 'none' &&
        o.guestPhone !== null;
      const upd = await new OrdersRepo(q).update(
        o.id,
        {
          deliveryStatus: r.status,
          deliveryStatusAt: r.at ? new Date(r.at) : now,
          ...(accrue ? { accrualState: 'pending', accrualSince: now } : {}),
        },
        now,
      );
      await this.deps.events.emit(q, 'order.delivery_status_changed', toView(upd), now);
      return toView(upd);
    });
  }

  /** Hands out requested cancellations of the route (each at most once per lease). The POS cancels with 'client refusal'. */
  async claimCancellations(cred: Credential): Promise<CancellationRequest[]> {
    const now = this.deps.clock.now();
    const retryBefore = new Date(now.getTime() - CLAIM_LEASE_SECONDS * 1000);
    const rows = await new OrdersRepo(this.deps.db).dispatchCancellations(
      cred.organizationId!,
      cred.terminalGroupId!,
      now,
      retryBefore,
      CANCEL_DISPATCH_STATES,
    );
    this.deps.steps.reached('cancel.dispatch.after_commit');
    return rows.map((o) => ({ orderId: o.id, stableId: o.id, posOrderId: o.posOrderId, state: o.state, reason: 'client refusal' as const }));
  }

  /**
   * The POS outcome of a cancellation: `rejected` → cancelState rejected with a cancelDetail; `cancelled` → state
   * `cancelled`, holds released. A cancellation the POS executed after it verified the order (requested before, by
   * the partner or the sweeper) never leaves the loyalty spend confirmed on a cancelled order: when a leg of the
   * order is confirmed or being confirmed, the order goes to `manual_review` (cancelState done) with those legs
   * flagged for a refund that a person decides (operator `order refunds`; docs/loyalty.md). A repeat of the result
   * already recorded is answered without change.
   */
  async cancelResult(cred: Credential, orderId: string, r: CancelResultReport) {
    const now = this.deps.clock.now();
    const out = await this.deps.db.tx(async (q) => {
      const o = await this.scoped(q, cred, orderId);
      if (o.cancelState !== 'requested') {
        const repeat = (r.result === 'cancelled' && o.cancelState === 'done') || (r.result === 'rejected' && o.cancelState === 'rejected');
        if (repeat) return { order: o, refunds: [] as LegRecord[], repeat: true };
        throw new ApiError('invalid_state_transition', {}, 'no cancellation is requested for this order');
      }
      if (r.result === 'rejected') {
        if (!r.detail) throw invalid('a rejected cancellation needs detail');
        const upd = await new OrdersRepo(q).update(o.id, { cancelState: 'rejected', cancelDetail: r.detail }, now);
        await this.deps.events.emit(q, 'order.cancel_result', toView(upd), now);
        return { order: upd, refunds: [], repeat: false };
      }
      const legs = new LegsRepo(q);
      const spent = o.state === 'created_verified' && (await legs.forOrder(o.id)).some((l) => l.state !== 'released' && l.state !== 'failed');
      const upd = await transition(q, this.deps.events, o, spent ? 'manual_review' : 'cancelled', 'pos_cancel', now, {
        cancelState: 'done',
        ...(o.deliveryStatus ? { deliveryStatus: 'Cancelled', deliveryStatusAt: now } : {}),
      });
      const refunds = spent ? await legs.flagRefund(o.id, now, 'the POS cancelled the order after it was verified') : [];
      if (o.deliveryStatus && o.deliveryStatus !== 'Cancelled') await this.deps.events.emit(q, 'order.delivery_status_changed', toView(upd), now);
      await this.deps.events.emit(q, 'order.cancel_result', toView(upd), now);
      return { order: upd, refunds, repeat: false };
    });
    this.deps.steps.reached('cancel_result.after_commit');
    if (out.refunds.length > 0) {
      this.deps.log?.error(
        {
          orderId: out.order.id,
          externalOrderId: out.order.externalOrderId,
          legs: out.refunds.map((l) => ({ legId: l.id, kind: l.kind, state: l.state, amountMinor: l.amountMinor })),
        },
        'the POS cancelled a verified order whose loyalty spend is confirmed: manual_review, refund to decide (delivery-operator order refunds)',
      );
    }
    if (out.order.state === 'cancelled' && !out.repeat) await this.deps.holds.settle(out.order.id, 'release');
    return toView(out.order);
  }

  /**
   * The order, locked; 404 when absent or when it belongs to another route (outside the credential's scope, like
   * any object outside a key's scope; `scope_violation` stays reserved for internal defects).
   */
  private async scoped(q: Queryable, cred: Credential, orderId: string): Promise<OrderRecord> {
    if (!UUID.test(orderId)) throw invalid('order id is not a UUID');
    const o = await new OrdersRepo(q).byId(orderId.toLowerCase(), true);
    if (!o) throw new ApiError('not_found', {}, 'no such order');
    if (o.organizationId !== cred.organizationId || o.terminalGroupId !== cred.terminalGroupId) {
      throw new ApiError('not_found', {}, 'no such order on this route');
    }
    return o;
  }
}
