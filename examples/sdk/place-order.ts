/**
 * Places a checkout order against the running demo with the partner SDK and watches its status.
 *   npx tsx examples/sdk/place-order.ts                    # coupon WELCOME200 + 100 RUB bonus, cash
 *   npx tsx examples/sdk/place-order.ts --cancel           # place, then cancel at once
 *   npx tsx examples/sdk/place-order.ts --street "Центральная улица"   # ambiguous street → reconciliation_required
 * Credentials: data/demo-credentials.json written by `npm start` (or CREDENTIALS_FILE).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { PartnerClient, PartnerApiError } from '@app/partner-sdk';

const { values: args } = parseArgs({
  options: {
    cancel: { type: 'boolean' },
    street: { type: 'string' },
    coupon: { type: 'string' },
    bonus: { type: 'string' },
    phone: { type: 'string' },
    watch: { type: 'string' },
  },
});
const creds = JSON.parse(readFileSync(process.env.CREDENTIALS_FILE ?? 'data/demo-credentials.json', 'utf8'));
const client = new PartnerClient({ baseUrl: creds.baseUrl, apiKey: creds.apiKey, apiSecret: creds.apiSecret });
const pointId: string = creds.orderPointId;
const phone = args.phone ?? '+79990000001';
const say = (s: string) => console.log(s);

const menu = await client.menu(pointId);
if (menu.notModified) throw new Error('unexpected 304');
const dishes = menu.data.items.filter((i) => i.available && i.price.amountMinor >= 30000).slice(0, 3);
say(`point ${pointId}: ordering ${dishes.map((d) => `${d.name} (${d.price.amountMinor / 100} ₽)`).join(', ')}`);

const cart = {
  pointId,
  deliveryType: 'pickup' as const,
  guest: { phone },
  items: dishes.map((d, i) => ({ id: d.id, quantity: i === 0 ? '2' : '1' })),
  coupon: args.coupon ?? 'WELCOME200',
  bonusToSpend: { amountMinor: Math.round(Number(args.bonus ?? '100') * 100), currency: 'RUB' as const },
};
const calc = await client.calculateCheckout(cart);
say(
  `calculated: subtotal ${calc.subtotal.amountMinor / 100} ₽, program −${calc.programDiscount.amountMinor / 100}, coupon ${calc.coupon.status} −${calc.coupon.discount.amountMinor / 100}, bonus −${calc.bonus.spend.amountMinor / 100}, to pay ${calc.total.amountMinor / 100} ₽${calc.loyaltyUnavailable ? ' (loyalty unavailable)' : ''}`,
);

const externalOrderId = `demo-${Date.now()}`;
const order = {
  schemaVersion: 1 as const,
  source: creds.source,
  externalOrderId,
  externalPointId: pointId,
  guest: { name: 'Анна', phone },
  address: { city: 'Москва', street: args.street ?? 'Тверская улица', house: '7', flat: '12' },
  items: calc.items.map((l) => ({ externalProductId: l.id, quantity: l.quantity, price: l.unitPrice })),
  total: { amountMinor: calc.items.reduce((s, l) => s + l.lineTotal.amountMinor, 0), currency: 'RUB' as const },
  deliveryType: calc.deliveryType as 'courier' | 'pickup',
  comment: 'Позвонить за 10 минут',
  calculationId: calc.calculationId,
  coupon: cart.coupon,
  bonusToSpend: cart.bonusToSpend,
  payment: { method: 'cash' as const, paid: false, amountMinor: calc.total.amountMinor },
};
try {
  const created = await client.createOrder(order);
  say(`POST /v1/orders → ${created.status}: order ${created.order.id} (${externalOrderId}) is ${created.order.state}`);
  if (args.cancel) {
    const c = await client.cancelOrder(created.order.id, { reason: 'guest_request', comment: 'передумал' });
    say(`cancel → ${c.status}: state ${c.order.state}, cancelState ${c.order.cancelState}`);
  }
  let last = '';
  const rounds = Number(args.watch ?? '40');
  for (let i = 0; i < rounds; i++) {
    const o = await client.getOrder(created.order.id, creds.source);
    const now = `${o.state} / ${o.deliveryStatus ?? '-'} / cancel ${o.cancelState}${o.cancelDetail ? ` (${o.cancelDetail})` : ''}`;
    if (now !== last) say(`  ${new Date().toISOString()}  ${now}`);
    last = now;
    if (['Closed', 'Cancelled'].includes(o.deliveryStatus ?? '') || ['cancelled', 'rejected_final', 'reconciliation_required'].includes(o.state))
      break;
    await new Promise((r) => setTimeout(r, 3000));
  }
} catch (err) {
  if (err instanceof PartnerApiError) say(`refused: HTTP ${err.status} ${err.code}`);
  else throw err;
}
