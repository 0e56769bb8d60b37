import type { World } from './harness.js';
import { MARGHERITA } from './harness.js';

let seq = 0;
export const PHONE = '+79990000001';

/** A calculate request and the matching order; `over` patches both (cart fields) or the order only (`order`). */
export async function checkoutOrder(
  w: World,
  over: {
    items?: { id: string; quantity: string }[];
    coupon?: string;
    bonus?: number;
    certificate?: { serial: string; amountMinor: number };
    deliveryType?: 'courier' | 'pickup';
    location?: { lat: number; lon: number };
    method?: 'cash' | 'online' | 'card_on_delivery';
    externalOrderId?: string;
    /** The guest's phone (default PHONE). */
    phone?: string;
  } = {},
) {
  const phone = over.phone ?? PHONE;
  const items = over.items ?? [{ id: MARGHERITA, quantity: '1' }];
  const cart: Record<string, unknown> = {
    pointId: '1',
    deliveryType: over.deliveryType ?? 'pickup',
    items,
    guest: { phone },
    ...(over.location ? { location: over.location } : {}),
    ...(over.coupon ? { coupon: over.coupon } : {}),
    ...(over.bonus !== undefined ? { bonusToSpend: { amountMinor: over.bonus, currency: 'RUB' } } : {}),
    ...(over.certificate ? { certificate: over.certificate } : {}),
  };
  const r = await w.call(w.partner, 'POST', '/v1/checkout/calculate', cart);
  if (r.statusCode !== 200) throw new Error(`calculate ${r.statusCode} ${r.body}`);
  const calc = r.json();
  const method = over.method ?? 'cash';
  const order: Record<string, unknown> = {
    schemaVersion: 1,
    source: 'website',
    externalOrderId: over.externalOrderId ?? `ord-${Date.now()}-${++seq}`,
    externalPointId: '1',
    guest: { name: 'Иван', phone },
    address: { city: 'Москва', street: 'Тверская улица', house: '1', flat: '5' },
    items: calc.items.map((l: { id: string; quantity: string; unitPrice: { amountMinor: number } }) => ({
      externalProductId: l.id,
      quantity: l.quantity,
      price: { amountMinor: l.unitPrice.amountMinor, currency: 'RUB' },
    })),
    total: {
      amountMinor: calc.items.reduce((s: number, l: { lineTotal: { amountMinor: number } }) => s + l.lineTotal.amountMinor, 0),
      currency: 'RUB',
    },
    deliveryType: calc.deliveryType,
    calculationId: calc.calculationId,
    payment: {
      method,
      paid: method === 'online',
      amountMinor: calc.total.amountMinor,
      ...(method === 'online' ? { externalPaymentId: `pay-${seq}` } : {}),
    },
    ...(over.location ? { location: over.location } : {}),
    ...(over.coupon ? { coupon: over.coupon } : {}),
    ...(over.bonus !== undefined ? { bonusToSpend: { amountMinor: over.bonus, currency: 'RUB' } } : {}),
    ...(over.certificate ? { certificate: over.certificate } : {}),
  };
  return { calc, order };
}

export const createOrder = (w: World, order: unknown) => w.call(w.partner, 'POST', '/v1/orders', order);

/** The POS of point 1 claims; returns the claim of order `id` (throws when it was not handed out). */
export async function claimOrder(w: World, id: string): Promise<{ claimId: string }> {
  const r = await w.call(w.pos['1'], 'POST', '/pos/v1/orders/claim', { limit: 50 });
  const c = r.json().orders?.find((o: { orderId: string }) => o.orderId === id);
  if (!c) throw new Error(`order ${id} was not claimed: ${r.statusCode} ${r.body}`);
  return c;
}

/** The POS of point 1 reports a state of order `id` under `claimId`. */
export const reportState = (w: World, id: string, claimId: string, state: string, extra: Record<string, unknown> = {}) =>
  w.call(w.pos['1'], 'POST', `/pos/v1/orders/${id}/state`, { claimId, stableId: id, state, ...extra });

/** Loyalty legs of an external order id as `kind:state`, by kind. */
export async function legsOf(w: World, externalOrderId: string): Promise<string[]> {
  const rows = await w.db.query<{ kind: string; state: string }>(`SELECT kind, state FROM loyalty_legs WHERE external_order_id = $1 ORDER BY kind`, [
    externalOrderId,
  ]);
  return rows.map((l) => `${l.kind}:${l.state}`);
}
