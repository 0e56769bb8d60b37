import type { Clock, Db } from '@app/shared';
import type { Credential } from '../auth/credentials.repo.js';
import { ApiError, invalid } from '../errors.js';
import type { StepObserver } from '../common/recovery-points.js';
import { LegsRepo } from '../holds/legs.repo.js';
import type { LoyaltyHolds } from '../holds/loyalty-holds.js';
import type { OrderEvents } from './order-events.js';
import { FINAL_STATES, IN_CREATION_STATES } from './order-states.js';
import type { CancelReason, OrderView } from '@app/delivery-contract';
import { OrdersRepo, toView } from './orders.repo.js';
import { transition } from './transition.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Outcome of a cancel request: 200 (cancelled at once or already final) or 202 (passed to the POS). */
export interface CancelOutcome {
  status: 200 | 202;
  order: OrderView;
}

/**
 * Spec: POST /v1/orders/{id}/cancel. queued → cancelled at once (holds released); in creation → cancelState
 * requested (202, event order.cancel_requested); final → 200 without change; POS refused → 409 cancel_rejected.
 * Restriction: an order with online payment or bonus, and a `created_verified` order with any loyalty leg not
 * released, is not cancelled through the API (cancelState rejected, cancelDetail sdk_error, 409 cancel_rejected);
 * the restaurant cancels it at the POS. A `created_verified` order without loyalty gets 202 as an order in creation.
 */
export class CancelService {
  constructor(private readonly deps: { db: Db; clock: Clock; events: OrderEvents; holds: LoyaltyHolds; steps: StepObserver }) {}

  async cancel(cred: Credential, id: string, req: { reason: CancelReason; comment?: string }): Promise<CancelOutcome> {
    if (!UUID.test(id)) throw invalid('order id is not a UUID');
    const now = this.deps.clock.now();
    const result = await this.deps.db.tx(async (q) => {
      const repo = new OrdersRepo(q);
      const order = await repo.byId(id.toLowerCase(), true);
      if (!order || order.tenantId !== cred.tenantId || order.source !== cred.source || !cred.pointIds.includes(order.pointId)) {
        throw new ApiError('not_found', {}, 'no such order');
      }
      if (FINAL_STATES.has(order.state)) return { status: 200 as const, order, release: false };
      if (order.cancelState === 'rejected') return { rejected: true as const };
      const base = { cancelReason: req.reason, cancelComment: req.comment ?? null };
      if (order.state === 'queued' && order.cancelState === 'requested') {
        // requested while the POS held it; the claim has since expired: nobody holds it, cancel at once
        const upd = await transition(q, this.deps.events, order, 'cancelled', 'partner_cancel', now, { ...base, cancelState: 'done' });
        await this.deps.events.emit(q, 'order.cancel_result', toView(upd), now);
        return { status: 200 as const, order: upd, release: true };
      }
      if (order.cancelState === 'requested') {
        // already with the POS; a sweeper-made request on a verified order is not made the partner's (it would be
        // handed out again): the POS's answer to the one it has decides (docs/loyalty.md)
        if (order.cancelRequestedBy === 'partner' || order.state === 'created_verified') return { status: 202 as const, order, release: false };
        // the sweeper asked first; now the partner asks too: it is the partner's request (never withdrawn)
        const upd = await repo.update(order.id, { ...base, cancelRequestedBy: 'partner' }, now);
        return { status: 202 as const, order: upd, release: false };
      }
      const legs = await new LegsRepo(q).forOrder(order.id);
      // A verified order whose coupon, bonus or certificate is spent (or being spent) is not cancelled through the
      // API: a cancellation executed now would leave the spend confirmed on a cancelled order.
      // Same answer as the spec's restriction for online and bonus orders: the restaurant cancels it at the POS.
      const spending = order.state === 'created_verified' && legs.some((l) => l.state !== 'released' && l.state !== 'failed');
      const restricted = order.paymentMethod === 'online' || legs.some((l) => l.kind === 'bonus' && l.state !== 'released') || spending;
      if (restricted) {
        const upd = await repo.update(order.id, { ...base, cancelState: 'rejected', cancelDetail: 'sdk_error' }, now);
        await this.deps.events.emit(q, 'order.cancel_result', toView(upd), now);
        return { rejected: true as const, commit: true };
      }
      if (order.state === 'queued') {
        const upd = await transition(q, this.deps.events, order, 'cancelled', 'partner_cancel', now, base);
        return { status: 200 as const, order: upd, release: true };
      }
      if (IN_CREATION_STATES.has(order.state)) {
        const upd = await repo.update(order.id, { ...base, cancelState: 'requested', cancelRequestedAt: now, cancelRequestedBy: 'partner' }, now);
        await this.deps.events.emit(q, 'order.cancel_requested', toView(upd), now);
        return { status: 202 as const, order: upd, release: false };
      }
      return { status: 200 as const, order, release: false };
    });
    if ('rejected' in result) throw new ApiError('cancel_rejected', {}, 'the cancellation was refused');
    this.deps.steps.reached('cancel.after_commit');
    if (result.release) await this.deps.holds.settle(result.order.id, 'release');
    return { status: result.status, order: toView(result.order) };
  }
}
