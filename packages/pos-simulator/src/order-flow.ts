import type { Clock, IdSource } from '@app/shared';
import { errFields, type SimLogger } from './log.js';
import { cancelDecision, decideOutcome, nextCreationState, nextDeliveryStatus, type RefusalRule, type SimOrder } from './sim-order.js';
import type { Terminal } from './terminal.js';

/** What an order round needs besides the terminal. `deliveryStepMs` is clock time; `claimLimit` 1..50. */
export interface OrderFlowContext {
  clock: Clock;
  /** posOrderId / posDeliveryId of created orders. */
  ids: IdSource;
  log: SimLogger;
  refuse: RefusalRule;
  deliveryStepMs: number;
  claimLimit: number;
}

/**
 * Server answers after which retrying the same report cannot succeed: the order is forgotten (a lost lease puts
 * it back in the queue, so the next claim brings it back with a new claimId). Anything else is retried next round.
 */
const GIVE_UP = new Set([
  'invalid_or_expired_claim',
  'invalid_state_transition',
  'stable_id_mismatch',
  'not_found',
  'scope_violation',
  'invalid_request',
]);

/**
 * One order round of a collecting terminal (docs/pos-simulator.md "Orders"): execute or refuse requested
 * cancellations, claim queued orders, walk each claimed order through its creation states, then move created
 * orders one delivery status on. Cancellations go first so a guest's cancel wins over a due delivery step.
 * Failures are logged and retried next round; never throws.
 * @returns the number of failed calls.
 */
export async function runOrderRound(t: Terminal, ctx: OrderFlowContext): Promise<number> {
  let failed = await handleCancellations(t, ctx);
  failed += await claimNew(t, ctx);
  for (const o of t.orders.values()) failed += await advanceCreation(t, o, ctx);
  for (const o of t.orders.values()) failed += await advanceDelivery(t, o, ctx);
  return failed;
}

async function claimNew(t: Terminal, ctx: OrderFlowContext): Promise<number> {
  return attempt(t, ctx, 'claim', undefined, async () => {
    for (const c of await t.client.claimOrders(ctx.claimLimit)) {
      const before = t.orders.get(c.orderId);
      const decided = decideOutcome(c.order, ctx.refuse);
      t.orders.set(c.orderId, {
        orderId: c.orderId,
        stableId: c.stableId,
        claimId: c.claimId,
        deliveryType: c.order.deliveryType,
        ...decided,
        state: 'claimed',
        posOrderId: before?.posOrderId ?? ctx.ids.uuid(),
        posDeliveryId: before?.posDeliveryId ?? ctx.ids.uuid(),
        deliveryStatus: null,
        deliveryStatusAt: null,
        cancelled: false,
      });
      ctx.log.info({ pointId: t.pointId, orderId: c.orderId, outcome: decided.outcome }, 'order claimed');
    }
  });
}

/** Reports the remaining creation states of one order in order; stops at the first failure (resumed next round). */
async function advanceCreation(t: Terminal, o: SimOrder, ctx: OrderFlowContext): Promise<number> {
  for (let state = nextCreationState(o); state !== null; state = nextCreationState(o)) {
    const created = state === 'created_verified';
    const failed = await attempt(t, ctx, 'state', o, async () => {
      await t.client.reportState(o.orderId, {
        claimId: o.claimId,
        stableId: o.stableId,
        state,
        ...(created ? { posOrderId: o.posOrderId, posDeliveryId: o.posDeliveryId } : {}),
        ...(state === o.outcome && o.message ? { message: o.message } : {}),
      });
      o.state = state;
      ctx.log.info({ pointId: t.pointId, orderId: o.orderId, state }, 'order state reported');
    });
    if (failed) return failed;
  }
  return 0;
}

async function advanceDelivery(t: Terminal, o: SimOrder, ctx: OrderFlowContext): Promise<number> {
  const now = ctx.clock.now();
  const status = nextDeliveryStatus(o, now.getTime(), ctx.deliveryStepMs);
  if (status === null) return 0;
  return attempt(t, ctx, 'deliveryStatus', o, async () => {
    await t.client.reportDeliveryStatus(o.orderId, { status, at: now.toISOString() });
    o.deliveryStatus = status;
    o.deliveryStatusAt = now.getTime();
    ctx.log.info({ pointId: t.pointId, orderId: o.orderId, status }, 'delivery status reported');
  });
}

/** Claims requested cancellations and answers each; an unanswered one is handed out again by the server after 120 s. */
async function handleCancellations(t: Terminal, ctx: OrderFlowContext): Promise<number> {
  let failed = 0;
  failed += await attempt(t, ctx, 'cancellations', undefined, async () => {
    for (const c of await t.client.claimCancellations()) {
      const o = t.orders.get(c.orderId);
      const decision = cancelDecision(o);
      // The cashier cancels at once; from here on the walk stops even if the report below is lost.
      if (o && decision.result === 'cancelled') o.cancelled = true;
      failed += await attempt(t, ctx, 'cancelResult', undefined, async () => {
        await t.client.reportCancelResult(c.orderId, decision);
        ctx.log.info({ pointId: t.pointId, orderId: c.orderId, ...decision }, 'cancellation answered');
      });
    }
  });
  return failed;
}

/** Runs one call; logs a failure, records it as the terminal's last error and forgets `o` on a final answer. */
async function attempt(t: Terminal, ctx: OrderFlowContext, what: string, o: SimOrder | undefined, fn: () => Promise<void>): Promise<number> {
  try {
    await fn();
    return 0;
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'error';
    t.lastError = { what, code, at: ctx.clock.now().getTime() };
    const drop = o !== undefined && GIVE_UP.has(code);
    if (drop) t.orders.delete(o.orderId);
    ctx.log.warn(
      { pointId: t.pointId, orderId: o?.orderId, what, err: errFields(err) },
      drop ? 'order dropped: the server refused the report' : `${what} failed; retried next round`,
    );
    return 1;
  }
}
