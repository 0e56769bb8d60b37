import type { CancelDetail, DeliveryStatus, PosOrderPayload, PosReportedState } from './pos-orders.types.js';

/** How a claimed order ends its creation at the simulated POS. */
export type CreationOutcome = Extract<PosReportedState, 'created_verified' | 'reconciliation_required' | 'rejected_final'>;

/** The restaurant's refusal rule: true = the POS refuses the order definitively (`rejected_final`). */
export type RefusalRule = (order: PosOrderPayload) => boolean;

/** Default refusal rule: the guest's comment (first 250 characters, as the POS sees it) contains `#refuse`. */
export const refuseTagged: RefusalRule = (order) => (order.comment ?? '').includes('#refuse');

/**
 * What the simulator remembers of one claimed order (in memory only: after a restart the server's
 * cancellations of these orders are refused with `not_found`). Times are clock milliseconds (UTC epoch).
 */
export interface SimOrder {
  orderId: string;
  stableId: string;
  /** Current lease; a re-claim after a lost lease replaces it. */
  claimId: string;
  deliveryType: 'courier' | 'pickup';
  outcome: CreationOutcome;
  /** Why the outcome is not `created_verified` (sent as the report's `message`). */
  message?: string;
  /** Last creation state the server accepted; `claimed` right after the claim. */
  state: 'claimed' | PosReportedState;
  /** Generated once at the claim so a retried report never changes them (409 stable_id_mismatch otherwise). */
  posOrderId: string;
  posDeliveryId: string;
  /** Last delivery status the server accepted, and when (clock ms). */
  deliveryStatus: DeliveryStatus | null;
  deliveryStatusAt: number | null;
  /** The cashier cancelled it ('client refusal'); the walk stops, only the cancel report may still be owed. */
  cancelled: boolean;
}

/** Creation reports in order; the last one is the outcome. Spec: POS protocol, normal path. */
export function creationSteps(o: SimOrder): PosReportedState[] {
  return ['prepared', 'create_sending', o.outcome];
}

/** The next creation state to report, or null when the walk is over (or the order was cancelled). */
export function nextCreationState(o: SimOrder): PosReportedState | null {
  if (o.cancelled) return null;
  const steps = creationSteps(o);
  const at = o.state === 'claimed' ? -1 : steps.indexOf(o.state);
  return steps[at + 1] ?? null;
}

/**
 * Decides how the POS creates an order: refused by `refuse` → `rejected_final`; a street that is not an exact,
 * single match in this terminal's dictionary → `reconciliation_required` (support picks the street); else created.
 */
export function decideOutcome(order: PosOrderPayload, refuse: RefusalRule): { outcome: CreationOutcome; message?: string } {
  if (refuse(order)) return { outcome: 'rejected_final', message: 'refused by the restaurant' };
  const { street, streetStatus } = order.address;
  if (streetStatus !== 'ok') return { outcome: 'reconciliation_required', message: `street "${street}" is ${streetStatus} in the POS dictionary` };
  return { outcome: 'created_verified' };
}

/** iiko delivery statuses the simulated POS walks through, one per step. Spec: Order `deliveryStatus`. */
export const DELIVERY_WALK: Record<SimOrder['deliveryType'], readonly DeliveryStatus[]> = {
  courier: ['Unconfirmed', 'New', 'Waiting', 'OnWay', 'Delivered', 'Closed'],
  pickup: ['Unconfirmed', 'New', 'Closed'],
};

/**
 * The delivery status to report now, or null: `Unconfirmed` as soon as the order is created, then the next one
 * once `stepMs` (clock milliseconds) passed since the last accepted status; nothing after `Closed` or a cancel.
 */
export function nextDeliveryStatus(o: SimOrder, nowMs: number, stepMs: number): DeliveryStatus | null {
  if (o.cancelled || o.state !== 'created_verified') return null;
  const walk = DELIVERY_WALK[o.deliveryType];
  if (o.deliveryStatus === null) return walk[0];
  if (nowMs - (o.deliveryStatusAt ?? 0) < stepMs) return null;
  return walk[walk.indexOf(o.deliveryStatus) + 1] ?? null;
}

/**
 * The POS answer to a cancellation ('client refusal'): an order unknown to this POS → `not_found`; one whose
 * delivery status moved past `New` → `not_new` (spec: cancelDetail); otherwise it is cancelled.
 */
export function cancelDecision(o: SimOrder | undefined): { result: 'cancelled' } | { result: 'rejected'; detail: CancelDetail } {
  if (!o) return { result: 'rejected', detail: 'not_found' };
  if (o.cancelled || o.deliveryStatus === null || o.deliveryStatus === 'Unconfirmed' || o.deliveryStatus === 'New') return { result: 'cancelled' };
  return { result: 'rejected', detail: 'not_new' };
}
