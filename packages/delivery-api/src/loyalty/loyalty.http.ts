import { LoyaltyHttpClient, type LoyaltyHttpOptions } from './loyalty.http-client.js';
import {
  LoyaltyError,
  type AccrueRequest,
  type CalculateRequest,
  type CalculateResult,
  type CallOptions,
  type GuestLoyalty,
  type Hold,
  type HoldRequest,
  type HoldStatus,
  type LoyaltyPort,
} from './loyalty.port.js';
import * as W from './loyalty.wire.js';

const P = '/api/1/loyalty/iiko';

/**
 * The real loyalty adapter over HTTP (iiko Cloud shape; the loyalty simulator speaks the same).
 * Each port call has one deadline (`timeoutMs`, default 5 s) covering its token and lookup requests.
 * Spec: POST /v1/checkout/calculate, POST /v1/orders rules 8-11, Loyalty hold legs.
 */
export class HttpLoyalty implements LoyaltyPort {
  private readonly http: LoyaltyHttpClient;

  constructor(opts: LoyaltyHttpOptions) {
    this.http = new LoyaltyHttpClient(opts);
  }

  async calculate(req: CalculateRequest, opts?: CallOptions): Promise<CalculateResult> {
    const body = {
      organizationId: req.organizationId,
      order: {
        phone: req.phone,
        items: req.lines.map((l) => ({
          productId: l.productId,
          type: 'Product',
          amount: W.toAmount(l.quantityMilli),
          price: W.toRub(l.unitPriceMinor),
          sum: W.toRub(l.lineTotalMinor),
        })),
      },
      coupon: req.coupon,
      certificate: req.certificate ? { number: req.certificate.serial, sum: W.toRub(req.certificate.amountMinor) } : undefined,
      bonusToSpend: req.bonusToSpendMinor === undefined ? undefined : W.toRub(req.bonusToSpendMinor),
      deliveryFee: req.deliveryFeeMinor === undefined ? undefined : W.toRub(req.deliveryFeeMinor),
    };
    const a = W.expectShape(W.CalculateAnswer, await this.http.post(`${P}/calculate`, body, this.http.deadline(opts?.signal)), 'calculate');
    return fromCalculateAnswer(a, req.coupon !== undefined, req.certificate !== undefined);
  }

  async hold(req: HoldRequest, opts?: CallOptions): Promise<Hold & { status: HoldStatus }> {
    const d = this.http.deadline(opts?.signal);
    const common = { organizationId: req.organizationId, sum: W.toRub(req.amountMinor), idempotencyKey: req.idempotencyKey, orderId: req.orderRef };
    let answer: unknown;
    if (req.kind === 'coupon') {
      if (!req.coupon) throw new LoyaltyError('rejected', 'coupon_invalid', 'coupon hold without a coupon code');
      answer = await this.http.post(`${P}/coupons/hold`, { ...common, number: req.coupon }, d);
    } else {
      const wallet = await this.findWallet(req, d);
      answer = await this.http.post(`${P}/customer/wallet/hold`, { ...common, customerId: wallet.customerId, walletId: wallet.walletId }, d);
    }
    const h = W.expectShape(W.HoldAnswer, answer, 'hold');
    // the same key answers the same hold in its current state: what the service says is what the caller records
    return { holdId: h.transactionId, amountMinor: W.fromRub(h.sum), status: h.status };
  }

  /** The guest's bonus wallet (by phone) or the certificate's wallet (serial as card number). */
  private async findWallet(req: HoldRequest, d: ReturnType<LoyaltyHttpClient['deadline']>): Promise<{ customerId: string; walletId: string }> {
    const isBonus = req.kind === 'bonus';
    const notFound = isBonus ? 'guest_not_found' : 'certificate_invalid';
    const lookup = isBonus ? { type: 'phone', phone: req.phone } : { type: 'cardNumber', cardNumber: req.certificateSerial };
    if (!(isBonus ? req.phone : req.certificateSerial))
      throw new LoyaltyError('rejected', notFound, `${req.kind} hold without ${isBonus ? 'phone' : 'certificate serial'}`);
    let raw: unknown;
    try {
      raw = await this.http.post(`${P}/customer/info`, { organizationId: req.organizationId, ...lookup }, d);
    } catch (e) {
      // For a certificate the "customer" is the certificate card: not found means an invalid certificate.
      if (e instanceof LoyaltyError && e.reason === 'guest_not_found') throw new LoyaltyError('rejected', notFound, e.message);
      throw e;
    }
    const c = W.expectShape(W.CustomerAnswer, raw, 'customer/info');
    const w = c.walletBalances.find((x) => x.type === req.kind);
    if (!w) throw new LoyaltyError('rejected', notFound, `no ${req.kind} wallet`);
    return { customerId: c.id, walletId: w.id };
  }

  async getHold(idempotencyKey: string, opts?: CallOptions): Promise<(Hold & { status: HoldStatus }) | null> {
    const a = W.expectShape(
      W.HoldInfoAnswer,
      await this.http.post(`${P}/customer/wallet/hold/info`, { idempotencyKey }, this.http.deadline(opts?.signal)),
      'hold/info',
    );
    return a.hold ? { holdId: a.hold.transactionId, amountMinor: W.fromRub(a.hold.sum), status: a.hold.status } : null;
  }

  async confirm(req: { holdId: string; idempotencyKey: string }, opts?: CallOptions): Promise<void> {
    const a = await this.http.post(
      `${P}/customer/wallet/chargeoff`,
      { transactionId: req.holdId, idempotencyKey: req.idempotencyKey },
      this.http.deadline(opts?.signal),
    );
    W.expectShape(W.HoldAnswer, a, 'chargeoff');
  }

  async release(req: { holdId: string; idempotencyKey: string }, opts?: CallOptions): Promise<void> {
    const a = await this.http.post(
      `${P}/customer/wallet/cancel_hold`,
      { transactionId: req.holdId, idempotencyKey: req.idempotencyKey },
      this.http.deadline(opts?.signal),
    );
    W.expectShape(W.HoldAnswer, a, 'cancel_hold');
  }

  async accrue(req: AccrueRequest, opts?: CallOptions): Promise<{ accruedMinor: number }> {
    const body = {
      organizationId: req.organizationId,
      phone: req.phone,
      orderId: req.orderRef,
      paidSum: W.toRub(req.paidMinor),
      idempotencyKey: req.idempotencyKey,
    };
    const a = W.expectShape(W.AccrualAnswer, await this.http.post(`${P}/customer/accrual`, body, this.http.deadline(opts?.signal)), 'accrual');
    return { accruedMinor: W.fromRub(a.accruedSum) };
  }

  async getAccrual(idempotencyKey: string, opts?: CallOptions): Promise<{ accruedMinor: number } | null> {
    const a = W.expectShape(
      W.AccrualInfoAnswer,
      await this.http.post(`${P}/customer/accrual/info`, { idempotencyKey }, this.http.deadline(opts?.signal)),
      'accrual/info',
    );
    return a.accrual ? { accruedMinor: W.fromRub(a.accrual.accruedSum) } : null;
  }

  async guestLoyalty(organizationId: string, phone: string, opts?: CallOptions): Promise<GuestLoyalty | null> {
    let raw: unknown;
    try {
      raw = await this.http.post(`${P}/customer/info`, { organizationId, type: 'phone', phone }, this.http.deadline(opts?.signal));
    } catch (e) {
      if (e instanceof LoyaltyError && e.reason === 'guest_not_found') return null;
      throw e;
    }
    const c = W.expectShape(W.GuestProfileAnswer, raw, 'customer/info');
    return {
      wallets: c.walletBalances.map((w) => ({ id: w.id, name: w.name ?? null, type: w.type, balanceMinor: W.fromRub(w.balance) })),
      categories: (c.categories ?? []).filter((k) => k.isActive !== false).map((k) => ({ id: k.id, name: k.name })),
      coupons: (c.coupons ?? []).map((k) => ({
        number: k.number,
        name: k.name ?? null,
        percent: k.percent ?? null,
        amountMinor: k.sum == null ? null : W.fromRub(k.sum),
        validTo: k.validTo ?? null,
      })),
    };
  }
}

/** Maps the iiko-shaped calculation to the port's result (kopecks; program and coupon discounts apart). */
export function fromCalculateAnswer(a: W.CalculateAnswer, couponRequested: boolean, certificateRequested: boolean): CalculateResult {
  const discounts = a.loyaltyProgramResults
    .filter((r) => r.discountSum > 0)
    .map((r) => ({
      programId: r.marketingCampaignId,
      name: r.name,
      kind: r.kind,
      amountMinor: W.fromRub(r.discountSum),
      posDiscountId: r.posDiscountId,
    }));
  const gifts = a.loyaltyProgramResults.flatMap((r) =>
    r.freeProducts.map((g) => ({
      productId: g.productId,
      quantityMilli: W.fromAmount(g.amount),
      programId: r.marketingCampaignId,
      posDiscountId: r.posDiscountId,
    })),
  );
  const bonus = a.availablePayments.find((p) => p.type === 'bonus');
  const ci = a.couponInfo;
  const result: CalculateResult = {
    programDiscountMinor: discounts.filter((d) => d.kind === 'program').reduce((s, d) => s + d.amountMinor, 0),
    coupon: !couponRequested
      ? { status: 'not_requested', discountMinor: 0 }
      : {
          status: ci.status === 'applied' ? 'applied' : 'invalid',
          discountMinor: ci.status === 'applied' ? W.fromRub(ci.discountSum) : 0,
          ...(ci.reason ? { reason: ci.reason as NonNullable<CalculateResult['coupon']['reason']> } : {}),
        },
    guestFound: a.customer !== null,
    bonus: { balanceMinor: bonus ? W.fromRub(bonus.balance) : 0, maxSpendMinor: bonus ? W.fromRub(bonus.maxSum) : 0 },
    discounts,
    gifts,
  };
  if (certificateRequested) {
    result.certificate = a.certificate
      ? { status: a.certificate.status, availableMinor: W.fromRub(a.certificate.available) }
      : { status: 'invalid', availableMinor: 0 };
  }
  return result;
}
