import type { Clock } from '@app/shared';
import type { Credential } from '../auth/credentials.repo.js';
import { ApiError } from '../errors.js';
import { TenantsRepo } from '../tenants/tenants.repo.js';
import type { CalculationTokens } from './calculation-token.js';
import type { CartInput, CheckoutCalculator, CheckoutResultBody } from './calculator.js';

/** Spec: Checkout request (wire shape). */
export interface CheckoutRequest {
  pointId: string;
  deliveryType?: 'courier' | 'pickup';
  location?: { lat: number; lon: number };
  items: { id: string; quantity: string }[];
  guest?: { phone: string };
  coupon?: string;
  bonusToSpend?: { amountMinor: number; currency: 'RUB' };
  certificate?: { serial: string; amountMinor: number };
  deliverAt?: string;
}

export type CheckoutResult = CheckoutResultBody & { calculationId: string; expiresAt: string };

/** Wire request → calculator input. */
export function toCart(r: CheckoutRequest): CartInput {
  return {
    pointId: r.pointId,
    deliveryType: r.deliveryType,
    location: r.location,
    items: r.items,
    phone: r.guest?.phone,
    coupon: r.coupon,
    bonusToSpendMinor: r.bonusToSpend?.amountMinor,
    certificate: r.certificate,
  };
}

/** Spec: POST /v1/checkout/calculate. No side effects; issues the 15-minute calculationId. */
export class CheckoutService {
  constructor(
    private readonly deps: { calculator: CheckoutCalculator; tokens: CalculationTokens; clock: Clock; db: import('@app/shared').Queryable },
  ) {}

  /** @throws ApiError checkout_unavailable (503) when calculation is switched off for the tenant, plus the calculator's errors. */
  async calculate(cred: Credential, req: CheckoutRequest): Promise<CheckoutResult> {
    const settings = await new TenantsRepo(this.deps.db).settings(cred.tenantId);
    if (!settings.checkoutEnabled) throw new ApiError('checkout_unavailable', {}, 'cart calculation is disabled on the server');
    const cart = toCart(req);
    const calc = await this.deps.calculator.calculate(cred, cart, settings);
    const { token, expiresAt } = await this.deps.tokens.issue(
      {
        tenantId: cred.tenantId,
        source: cred.source!,
        pointId: calc.point.pointId,
        deliveryType: calc.body.deliveryType,
        items: calc.lines.map((l) => [l.id.toLowerCase(), l.quantityMilli]),
        coupon: cart.coupon ?? null,
        bonusToSpendMinor: cart.bonusToSpendMinor ?? null,
        certificate: cart.certificate ?? null,
        phone: cart.phone ?? null,
        totalMinor: calc.amounts.total,
      },
      this.deps.clock.now(),
    );
    return { ...calc.body, calculationId: token, expiresAt: expiresAt.toISOString() };
  }
}
