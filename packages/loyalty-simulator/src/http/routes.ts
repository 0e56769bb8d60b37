import type { FastifyInstance } from 'fastify';
import type { LoyaltyEngine } from '../engine/engine.js';
import type { EngineCalcResult, HoldRecord } from '../engine/types.js';
import * as S from './schemas.js';
import { amount, milli, minor, rub, type Operation } from './wire.js';

const P = '/api/1/loyalty/iiko';

function holdView(h: HoldRecord) {
  return { transactionId: h.id, sum: rub(h.amountMinor), status: h.status };
}

/**
 * Calculation in the iiko shape: one `loyaltyProgramResults` entry per program or coupon with its discount sum
 * and free products, `availablePayments` for the bonus wallet; `couponInfo`, `certificate`, `customer` and
 * `posDiscountId` are this simulator's additions (see docs/loyalty.md).
 */
export function calculateView(r: EngineCalcResult) {
  return {
    loyaltyProgramResults: [
      ...r.discounts.map((d) => ({
        marketingCampaignId: d.programId,
        name: d.name,
        kind: d.kind,
        discountSum: rub(d.amountMinor),
        posDiscountId: d.posDiscountId,
        freeProducts: [],
      })),
      ...r.gifts.map((g) => ({
        marketingCampaignId: g.programId,
        name: 'gift',
        kind: 'program',
        discountSum: 0,
        posDiscountId: g.posDiscountId,
        freeProducts: [{ productId: g.productId, amount: amount(g.quantityMilli) }],
      })),
    ],
    programDiscountSum: rub(r.programDiscountMinor),
    couponInfo: { status: r.coupon.status, discountSum: rub(r.coupon.discountMinor), reason: r.coupon.reason ?? null },
    customer: r.customerId ? { id: r.customerId } : null,
    availablePayments: r.bonus.walletId
      ? [{ id: r.bonus.walletId, type: 'bonus', balance: rub(r.bonus.balanceMinor), maxSum: rub(r.bonus.maxSpendMinor) }]
      : [],
    certificate: r.certificate ? { status: r.certificate.status, available: rub(r.certificate.availableMinor) } : null,
  };
}

/** The iiko-shaped loyalty routes. Each carries its operation name for faults and the write limit. */
export async function loyaltyRoutes(app: FastifyInstance, opts: { engine: LoyaltyEngine }): Promise<void> {
  const e = opts.engine;
  const cfg = (op: Operation) => ({ config: { op } });

  app.post<{ Body: S.CalculateBody }>(`${P}/calculate`, { schema: { body: S.CalculateBody }, ...cfg('calculate') }, async (req) => {
    const b = req.body;
    const result = e.calculate({
      organizationId: b.organizationId,
      phone: b.order.phone,
      lines: b.order.items.map((i) => ({
        productId: i.productId,
        quantityMilli: milli(i.amount),
        unitPriceMinor: minor(i.price),
        lineTotalMinor: minor(i.sum),
      })),
      coupon: b.coupon,
      certificate: b.certificate ? { serial: b.certificate.number, amountMinor: minor(b.certificate.sum) } : undefined,
      bonusToSpendMinor: b.bonusToSpend === undefined ? undefined : minor(b.bonusToSpend),
      deliveryFeeMinor: b.deliveryFee === undefined ? undefined : minor(b.deliveryFee),
    });
    return calculateView(result);
  });

  app.post<{ Body: S.CustomerInfoBody }>(`${P}/customer/info`, { schema: { body: S.CustomerInfoBody }, ...cfg('customer_info') }, async (req) => {
    const b = req.body;
    const c = e.customerInfo(
      b.organizationId,
      b.type === 'phone' ? { phone: b.phone ?? '' } : b.type === 'cardNumber' ? { cardNumber: b.cardNumber ?? '' } : { id: b.id ?? '' },
    );
    return {
      id: c.id,
      name: c.name,
      phone: c.phone ?? null,
      cardNumber: c.cardNumber ?? null,
      walletBalances: c.wallets.map((w) => ({
        id: w.id,
        name: w.type === 'bonus' ? 'Bonus' : 'Certificate',
        type: w.type,
        balance: rub(e.availableOf(w.id)),
      })),
      categories: c.category ? [{ id: `category-${c.category}`, name: c.category, isActive: true, isDefaultForNewGuests: false }] : [],
      coupons: e.activeCouponsOf(c, b.organizationId).map((k) => ({
        number: k.code,
        name: k.name,
        percent: k.percent,
        sum: k.amountMinor === null ? null : rub(k.amountMinor),
        validTo: k.validTo,
      })),
    };
  });

  app.post<{ Body: S.CouponInfoBody }>(`${P}/coupons/info`, { schema: { body: S.CouponInfoBody }, ...cfg('coupon_info') }, async (req) => {
    e.assertConnected(req.body.organizationId);
    const c = e.coupons.get(req.body.number);
    if (!c) return { exist: false, status: 'not_found' };
    const reason = e.coupons.check(req.body.number, req.body.organizationId, e.now(), Number.MAX_SAFE_INTEGER);
    return {
      exist: true,
      status: reason ?? 'active',
      percent: c.percent ?? null,
      sum: c.amountMinor === undefined ? null : rub(c.amountMinor),
      posDiscountId: c.posDiscountId,
    };
  });

  app.post<{ Body: S.WalletHoldBody }>(`${P}/customer/wallet/hold`, { schema: { body: S.WalletHoldBody }, ...cfg('hold') }, async (req) => {
    const b = req.body;
    const h = e.holds.holdWallet({
      idempotencyKey: b.idempotencyKey,
      organizationId: b.organizationId,
      orderRef: b.orderId ?? '',
      amountMinor: minor(b.sum),
      customerId: b.customerId,
      walletId: b.walletId,
    });
    return holdView(h);
  });

  app.post<{ Body: S.CouponHoldBody }>(`${P}/coupons/hold`, { schema: { body: S.CouponHoldBody }, ...cfg('hold') }, async (req) => {
    const b = req.body;
    return holdView(
      e.holds.holdCoupon({
        idempotencyKey: b.idempotencyKey,
        organizationId: b.organizationId,
        orderRef: b.orderId ?? '',
        amountMinor: minor(b.sum),
        code: b.number,
      }),
    );
  });

  app.post<{ Body: S.KeyBody }>(`${P}/customer/wallet/hold/info`, { schema: { body: S.KeyBody }, ...cfg('hold_info') }, async (req) => {
    const h = e.holds.getByKey(req.body.idempotencyKey);
    return { hold: h ? holdView(h) : null };
  });

  app.post<{ Body: S.SettleBody }>(`${P}/customer/wallet/chargeoff`, { schema: { body: S.SettleBody }, ...cfg('chargeoff') }, async (req) =>
    holdView(e.holds.chargeoff({ holdId: req.body.transactionId, idempotencyKey: req.body.idempotencyKey })),
  );

  app.post<{ Body: S.SettleBody }>(`${P}/customer/wallet/cancel_hold`, { schema: { body: S.SettleBody }, ...cfg('cancel_hold') }, async (req) =>
    holdView(e.holds.cancel({ holdId: req.body.transactionId, idempotencyKey: req.body.idempotencyKey })),
  );

  app.post<{ Body: S.AccrualBody }>(`${P}/customer/accrual`, { schema: { body: S.AccrualBody }, ...cfg('accrual') }, async (req) => {
    const b = req.body;
    const r = e.accrue({
      idempotencyKey: b.idempotencyKey,
      organizationId: b.organizationId,
      phone: b.phone,
      orderRef: b.orderId,
      paidMinor: minor(b.paidSum),
    });
    return { accruedSum: rub(r.accruedMinor) };
  });

  app.post<{ Body: S.KeyBody }>(`${P}/customer/accrual/info`, { schema: { body: S.KeyBody }, ...cfg('accrual_info') }, async (req) => {
    const a = e.getAccrual(req.body.idempotencyKey);
    return { accrual: a ? { accruedSum: rub(a.accruedMinor) } : null };
  });
}
