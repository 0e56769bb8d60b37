import type { Clock, IdSource } from '@app/shared';
import type { ProgramConfig, SimulatorConfig } from '../config.js';
import { applyPrograms, certificateStatus, maxBonusSpend, subtotalOf } from './calculate.js';
import { CouponBook } from './coupons.js';
import { available, CustomerBook } from './customers.js';
import { SimError } from './errors.js';
import { HoldLedger } from './holds.js';
import type { Customer, EngineCalcRequest, EngineCalcResult } from './types.js';

/**
 * The loyalty service's behaviour without HTTP: calculation, customers and wallets, holds, accrual.
 * State lives in memory and starts from the config. Used by the simulator's routes and by the delivery API's fake.
 */
export class LoyaltyEngine {
  /** Guests and certificate cards with their wallets (exposed for test assertions on balances). */
  readonly customers: CustomerBook;
  readonly coupons: CouponBook;
  readonly holds: HoldLedger;
  private readonly accruals = new Map<string, { phone: string; paidMinor: number; accruedMinor: number; orderRef: string }>();

  constructor(
    readonly config: SimulatorConfig,
    private readonly clock: Clock,
    ids: IdSource,
  ) {
    this.customers = new CustomerBook(config, ids);
    this.coupons = new CouponBook(config.coupons);
    this.holds = new HoldLedger({ customers: this.customers, coupons: this.coupons, clock, ids, assertConnected: (o) => this.assertConnected(o) });
  }

  /** The injected clock's time (coupon validity, certificate expiry). */
  now(): Date {
    return this.clock.now();
  }

  /** Throws ORGANIZATION_NOT_CONNECTED unless loyalty is connected for the organization. */
  assertConnected(organizationId: string): void {
    const c = this.config;
    if (!c.allOrganizations && !(c.organizations ?? []).includes(organizationId)) {
      throw new SimError('ORGANIZATION_NOT_CONNECTED', `Loyalty is not connected to organization ${organizationId}`);
    }
  }

  private programsOf(organizationId: string): ProgramConfig[] {
    return this.config.programs.filter((p) => !p.organizations || p.organizations.includes(organizationId));
  }

  /** Customer lookup as iiko's customer/info does (by phone or card number), organization checked first. */
  customerInfo(organizationId: string, q: { phone?: string; cardNumber?: string; id?: string }): Customer {
    this.assertConnected(organizationId);
    return this.customers.find(q);
  }

  /**
   * The guest's coupons usable now at the organization (valid, not used or held), in the order given, with the
   * coupon's discount. For customer/info's `coupons` list.
   */
  activeCouponsOf(
    c: Customer,
    organizationId: string,
  ): { code: string; name: string | null; percent: number | null; amountMinor: number | null; validTo: string | null }[] {
    const now = this.clock.now();
    return (c.coupons ?? []).flatMap((code) => {
      const k = this.coupons.get(code);
      if (!k || this.coupons.check(code, organizationId, now, Number.MAX_SAFE_INTEGER) !== null) return [];
      return [{ code: k.code, name: k.name ?? null, percent: k.percent ?? null, amountMinor: k.amountMinor ?? null, validTo: k.validTo ?? null }];
    });
  }

  /** Available (held subtracted) balance of a wallet now, kopecks. */
  availableOf(walletId: string): number {
    const w = this.customers.walletById(walletId);
    return w ? available(w, this.clock.now()) : 0;
  }

  /**
   * Loyalty for a cart, without side effects: programs on the subtotal, then the coupon on what is left,
   * then the bonus ceiling and the certificate check. Spec: POST /v1/checkout/calculate, rules 1, 2, 7.
   */
  calculate(req: EngineCalcRequest): EngineCalcResult {
    this.assertConnected(req.organizationId);
    const now = this.clock.now();
    const subtotal = subtotalOf(req.lines);
    const { discounts, gifts } = applyPrograms(this.programsOf(req.organizationId), req.lines);
    const programDiscount = discounts.reduce((s, d) => s + d.amountMinor, 0);

    let coupon: EngineCalcResult['coupon'] = { status: 'not_requested', discountMinor: 0 };
    if (req.coupon !== undefined) {
      const reason = this.coupons.check(req.coupon, req.organizationId, now, subtotal);
      if (reason) coupon = { status: 'invalid', discountMinor: 0, reason };
      else {
        const d = this.coupons.discount(req.coupon, subtotal - programDiscount);
        coupon = { status: 'applied', discountMinor: d.amountMinor };
        if (d.amountMinor > 0) discounts.push(d);
      }
    }

    const guest = req.phone ? this.customers.byPhoneNumber(req.phone) : undefined;
    const bonusWallet = guest?.wallets.find((w) => w.type === 'bonus');
    const balance = bonusWallet ? available(bonusWallet, now) : 0;
    const result: EngineCalcResult = {
      subtotalMinor: subtotal,
      programDiscountMinor: programDiscount,
      coupon,
      customerId: guest?.id ?? null,
      bonus: {
        walletId: bonusWallet?.id ?? null,
        balanceMinor: balance,
        maxSpendMinor: maxBonusSpend(balance, subtotal - programDiscount - coupon.discountMinor),
      },
      discounts,
      gifts,
    };
    if (req.certificate) {
      const card = this.customers.byCardNumber(req.certificate.serial);
      const w = card?.wallets.find((x) => x.type === 'certificate');
      const usable = w && !(w.validTo && now >= w.validTo) ? available(w, now) : null;
      result.certificate = { status: certificateStatus(usable, req.certificate.amountMinor), availableMinor: usable ?? 0 };
    }
    return result;
  }

  /**
   * Credits `accrualPercent` of the money paid to the guest's bonus wallet. Idempotent by key: a repeat returns
   * the first outcome; the same key with another phone or amount is IDEMPOTENCY_CONFLICT.
   */
  accrue(r: { idempotencyKey: string; organizationId: string; phone: string; orderRef: string; paidMinor: number }): { accruedMinor: number } {
    const prior = this.accruals.get(r.idempotencyKey);
    if (prior) {
      if (prior.phone !== r.phone || prior.paidMinor !== r.paidMinor)
        throw new SimError('IDEMPOTENCY_CONFLICT', 'Accrual key reused with other data');
      return { accruedMinor: prior.accruedMinor };
    }
    const guest = this.customerInfo(r.organizationId, { phone: r.phone });
    const wallet = guest.wallets.find((w) => w.type === 'bonus')!;
    const accruedMinor = Math.floor((r.paidMinor * guest.accrualPercent) / 100 + 1e-9);
    wallet.balanceMinor += accruedMinor;
    this.accruals.set(r.idempotencyKey, { phone: r.phone, paidMinor: r.paidMinor, accruedMinor, orderRef: r.orderRef });
    return { accruedMinor };
  }

  /** The recorded outcome of an accrual, or null when the key is unknown. */
  getAccrual(idempotencyKey: string): { accruedMinor: number } | null {
    const a = this.accruals.get(idempotencyKey);
    return a ? { accruedMinor: a.accruedMinor } : null;
  }
}
