import type { Credential } from '../auth/credentials.repo.js';
import type { PhoneRateLimit } from '../checkout/phone-rate-limit.js';
import { ApiError } from '../errors.js';
import type { GuestLoyalty as GuestLoyaltyView } from '@app/delivery-contract';
import { isLoyaltyError, type GuestLoyalty, type LoyaltyPort } from '../loyalty/loyalty.port.js';
import type { PointsService } from '../points/points.service.js';
import type { TenantsRepo } from '../tenants/tenants.repo.js';
import { normalisePhone } from './phone.js';

/**
 * GET /v1/guests/{phone}/loyalty (switch `guest-api`): the guest's balances per program, level and usable coupons
 * from the loyalty service, at the loyalty organization of one routed point of the key (`pointId`, default the
 * first routed point). The same per-phone limit as checkout counts it (30/min, shared with calculations); the call
 * has the adapter's timeout. Loyalty not connected, off for the tenant, failing or timing out → 503
 * `loyalty_unavailable`.
 */
export class GuestLoyaltyService {
  constructor(private readonly deps: { loyalty: LoyaltyPort | null; points: PointsService; tenants: TenantsRepo; phoneLimit: PhoneRateLimit }) {}

  /** @throws ApiError invalid_phone, forbidden/not_found (point), rate_limited, loyalty_unavailable. */
  async loyalty(cred: Credential, rawPhone: string, pointId?: string): Promise<GuestLoyaltyView> {
    const phone = normalisePhone(rawPhone);
    const point = await this.deps.points.requireRouted(cred, pointId ?? (await this.firstRoutedPoint(cred)));
    const settings = await this.deps.tenants.settings(cred.tenantId);
    if (!this.deps.loyalty || !settings.loyaltyEnabled) throw new ApiError('loyalty_unavailable', {}, 'loyalty not connected');
    await this.deps.phoneLimit.consume(phone);
    let g: GuestLoyalty | null;
    try {
      g = await this.deps.loyalty.guestLoyalty(point.route.organizationId, phone);
    } catch (err) {
      if (!isLoyaltyError(err)) throw err;
      throw new ApiError('loyalty_unavailable', {}, `loyalty: ${err.code}/${err.reason}`);
    }
    return {
      found: g !== null,
      pointId: point.pointId,
      balances: (g?.wallets ?? []).map((w) => ({ programId: w.id, name: w.name, type: w.type, balanceMinor: w.balanceMinor, currency: 'RUB' })),
      level: g?.categories[0] ?? null,
      categories: g?.categories ?? [],
      coupons: g?.coupons ?? [],
    };
  }

  private async firstRoutedPoint(cred: Credential): Promise<string> {
    for (const id of cred.pointIds) {
      const ok = await this.deps.points.requireRouted(cred, id).then(
        () => true,
        () => false,
      );
      if (ok) return id;
    }
    throw new ApiError('not_found', {}, 'no routed point in the key');
  }
}
