import type { Clock, Db, IdSource, Queryable } from '@app/shared';
import type { Credential } from '../auth/credentials.repo.js';
import { ApiError, invalid } from '../errors.js';
import type { LoyaltyHolds } from '../orders/loyalty-holds.js';
import type { OrderEvents } from '../orders/order-events.js';
import type { CrashPoints } from '../orders/crash-points.js';
import { holdEffectOf } from '../orders/order-states.js';
import type { OrderState } from '../orders/order-view.js';
import { OrdersRepo, toView, type OrderRecord } from '../orders/orders.repo.js';
import { transition } from '../orders/transition.js';
import type { CancellationRequest, CancelResultReport, ClaimedOrder, DeliveryStatusReport, StateReport } from './pos-protocol.js';

/** A claim lease: the POS must report within it or the order returns to the queue. */
export const CLAIM_LEASE_SECONDS = 120;
/** Cancellations are executed by the POS plugin only in these states (prepared/reconciliation: queued, not executed). */
const CANCEL_DISPATCH_STATES: OrderState[] = ['claimed', 'create_sending', 'created_verified'];

/**
 * The POS plugin's side of the order flow, scoped to the terminal group of its credential.
 * Spec: issue "POS order flow", ARCHITECTURE "POS protocol"; docs/pos-protocol.md.
 */
export class PosOrdersService {
  constructor(private readonly deps: { db: Db; clock: Clock; ids: IdSource; events: OrderEvents; holds: LoyaltyHolds; crash: CrashPoints }) {}

  /** Claims up to `limit` queued orders of the route with a lease; expired claims go back to the queue first. */
  async claim(cred: Credential, limit: number): Promise<ClaimedOrder[]> {
    const now = this.deps.clock.now();
    const expires = new Date(now.getTime() + CLAIM_LEASE_SECONDS * 1000);
    const cancelledNow: string[] = [];
    const claimed = await this.deps.db.tx(async (q) => {
      const repo = new OrdersRepo(q);
      for (const expired of await repo.expiredClaims(cred.organizationId!, cred.terminalGroupId!, now)) {
        const back = await transition(q, this.deps.events, expired, 'queued', 'claim_expired', now, { claimId: null, claimExpiresAt: null });
        // a cancellation requested while the POS held the order is executed now that nobody holds it
        if (back.cancelState === 'requested') {
          const done = await transition(q, this.deps.events, back, 'cancelled', 'partner_cancel', now, { cancelState: 'done' });
          await this.deps.events.emit(q, 'order.cancel_result', toView(done), now);
          cancelledNow.push(done.id);
        }
      }
      const out: ClaimedOrder[] = [];
      for (const queued of await repo.claimable(cred.organizationId!, cred.terminalGroupId!, limit)) {
        const claimId = this.deps.ids.uuid();
        const o = await transition(q, this.deps.events, queued, 'claimed', 'pos', now, { claimId, claimExpiresAt: expires });
        out.push({ orderId: o.id, claimId, claimExpiresAt: expires.toISOString(), stableId: o.id, order: o.posPayload });
      }
      this.deps.crash.at('claim.before_commit');
      return out;
    });
    this.deps.crash.at('claim.after_commit');
    for (const id of cancelledNow) await this.deps.holds.settle(id, 'release');
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
      if (o.claimId !== r.claimId || (o.state === 'claimed' && o.claimExpiresAt! < now))
        throw new ApiError('invalid_or_expired_claim', {}, 'claim is not current');
      if (o.state === r.state) return null;
      if (r.state === 'created_verified' && !r.posOrderId && !o.posOrderId) throw invalid('created_verified needs posOrderId');
      // a cancellation the hold sweeper asked for (not the partner) is withdrawn once the POS verified the order:
      // the holds are confirmed now, and cancelling would leave the guest's spent coupon on a cancelled order
      const withdraw = r.state === 'created_verified' && o.cancelState === 'requested' && o.cancelRequestedBy === 'hold_timeout';
      const moved = await transition(q, this.deps.events, o, r.state, 'pos', now, {
        claimExpiresAt: new Date(now.getTime() + CLAIM_LEASE_SECONDS * 1000),
        ...(r.posOrderId ? { posOrderId: r.posOrderId } : {}),
        ...(r.posDeliveryId ? { posDeliveryId: r.posDeliveryId } : {}),
        ...(withdraw ? { cancelState: 'none', cancelRequestedBy: null, cancelDispatchedAt: null } : {}),
      });
      if (withdraw) await this.deps.events.emit(q, 'order.cancel_result', toView(moved), now);
      return moved;
    });
    this.deps.crash.at('report.after_commit');
    if (!order) return toView((await new OrdersRepo(this.deps.db).byId(orderId))!);
    const effect = holdEffectOf(order.state);
    if (effect !== 'keep') await this.deps.holds.settle(order.id, effect);
    return toView(order);
  }

  /** A delivery status report (created orders only); Delivered/Closed of a checkout order schedules the bonus accrual. */
  async deliveryStatus(cred: Credential, orderId: string, r: DeliveryStatusReport) {
    const now = this.deps.clock.now();
    return this.deps.db.tx(async (q) => {
      const o = await this.scoped(q, cred, orderId);
      if (o.state !== 'created_verified' && o.state !== 'cancelled')
        throw new ApiError('invalid_state_transition', {}, 'delivery status before the order was created');
      if (o.deliveryStatus === r.status) return toView(o);
      const accrue =
        (r.status === 'Delivered' || r.status === 'Closed') && o.kind === 'checkout' && o.accrualState === 'none' && o.guestPhone !== null;
      const upd = await new OrdersRepo(q).update(
        o.id,
        { deliveryStatus: r.status, deliveryStatusAt: r.at ? new Date(r.at) : now, ...(accrue ? { accrualState: 'pending' } : {}) },
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
    return rows.map((o) => ({ orderId: o.id, stableId: o.id, posOrderId: o.posOrderId, state: o.state, reason: 'client refusal' as const }));
  }

  /** The POS outcome of a cancellation: cancelled (holds released) or rejected with a cancelDetail. */
  async cancelResult(cred: Credential, orderId: string, r: CancelResultReport) {
    const now = this.deps.clock.now();
    const order = await this.deps.db.tx(async (q) => {
      const o = await this.scoped(q, cred, orderId);
      if (o.cancelState !== 'requested') throw new ApiError('invalid_state_transition', {}, 'no cancellation is requested for this order');
      if (r.result === 'rejected') {
        if (!r.detail) throw invalid('a rejected cancellation needs detail');
        const upd = await new OrdersRepo(q).update(o.id, { cancelState: 'rejected', cancelDetail: r.detail }, now);
        await this.deps.events.emit(q, 'order.cancel_result', toView(upd), now);
        return upd;
      }
      const upd = await transition(q, this.deps.events, o, 'cancelled', 'pos_cancel', now, {
        cancelState: 'done',
        ...(o.deliveryStatus ? { deliveryStatus: 'Cancelled', deliveryStatusAt: now } : {}),
      });
      if (o.deliveryStatus && o.deliveryStatus !== 'Cancelled') await this.deps.events.emit(q, 'order.delivery_status_changed', toView(upd), now);
      await this.deps.events.emit(q, 'order.cancel_result', toView(upd), now);
      return upd;
    });
    if (order.state === 'cancelled') await this.deps.holds.settle(order.id, 'release');
    return toView(order);
  }

  /**
   * The order, locked; 404 when absent or when it belongs to another route (outside the credential's scope, like
   * any object outside a key's scope; `scope_violation` stays reserved for internal defects).
   */
  private async scoped(q: Queryable, cred: Credential, orderId: string): Promise<OrderRecord> {
    if (!/^[0-9a-f-]{36}$/i.test(orderId)) throw invalid('order id is not a UUID');
    const o = await new OrdersRepo(q).byId(orderId.toLowerCase(), true);
    if (!o) throw new ApiError('not_found', {}, 'no such order');
    if (o.organizationId !== cred.organizationId || o.terminalGroupId !== cred.terminalGroupId) {
      throw new ApiError('not_found', {}, 'no such order on this route');
    }
    return o;
  }
}
