import type { RoutedPoint } from '../catalog/catalog-revision-cache.js';
import type { Clock } from '@app/shared';
import type { Credential } from '../auth/credentials.repo.js';
import { unavailableIds } from '../catalog/catalog.service.js';
import type { PosMenuItem } from '../catalog/catalog.types.js';
import type { CatalogSnapshots } from '../catalog/catalog-snapshots.js';
import { ApiError } from '../errors.js';
import { isLoyaltyError, type CalculateResult, type LoyaltyPort } from '../loyalty/loyalty.port.js';
import type { PointWithRoute } from '../points/points.repo.js';
import type { PointsService } from '../points/points.service.js';
import { TenantsRepo, type TenantSettings } from '../tenants/tenants.repo.js';
import type { LatLon } from '../zones/zone-choice.js';
import type { ZoneIndexCache } from '../zones/zone-index-cache.js';
import type { ZoneRecord } from '../zones/zones.repo.js';
import { lineTotalMinor, MAX_AMOUNT_MINOR, parseQuantityMilli, rub, formatQuantity, type Money } from '../common/money.js';
import { NO_OWN_HOLDS, withOwnHolds, type OwnHolds } from './own-holds.js';
import type { PhoneRateLimit } from './phone-rate-limit.js';

/** The cart as checkout and orders give it. Spec: Checkout request. */
export interface CartInput {
  pointId: string;
  deliveryType?: 'courier' | 'pickup';
  location?: LatLon;
  items: { id: string; quantity: string }[];
  phone?: string;
  coupon?: string;
  bonusToSpendMinor?: number;
  certificate?: { serial: string; amountMinor: number };
}

export type ItemWarning = 'stop_list' | 'unknown_item' | 'hidden_item';

/** One priced line; `item` is the POS menu item when known. */
export interface PricedLine {
  id: string;
  name: string;
  quantity: string;
  quantityMilli: number;
  unitPriceMinor: number;
  lineTotalMinor: number;
  available: boolean;
  warning?: ItemWarning;
  item: PosMenuItem | null;
}

/** Checkout result without `calculationId`/`expiresAt` (the 409 price_changed body carries this). Spec: Checkout result. */
export interface CheckoutResultBody {
  pointId: string;
  deliveryType: 'courier' | 'pickup';
  items: { id: string; name: string; quantity: string; unitPrice: Money; lineTotal: Money; available: boolean; warning?: ItemWarning }[];
  subtotal: Money;
  programDiscount: Money;
  coupon: { status: 'not_requested' | 'applied' | 'invalid'; discount: Money };
  bonus: { requested: boolean; maxSpend: Money; spend: Money };
  certificate?: { status: 'available' | 'insufficient'; requestedMinor: number; spendMinor: number };
  deliveryFee: Money;
  minOrder: { met: boolean; missing: Money };
  total: Money;
  warnings: string[];
  loyaltyUnavailable: boolean;
}

/** A full calculation: the public body plus what order creation needs (lines, loyalty detail, zone, amounts). */
export interface Calculation {
  body: CheckoutResultBody;
  point: PointWithRoute & { route: NonNullable<PointWithRoute['route']> };
  settings: TenantSettings;
  lines: PricedLine[];
  loyalty: CalculateResult | null;
  zone: ZoneRecord | null;
  serviceable: boolean;
  amounts: {
    subtotal: number;
    programDiscount: number;
    couponDiscount: number;
    bonusSpend: number;
    deliveryFee: number;
    certificateSpend: number;
    total: number;
  };
}

/**
 * Prices a cart from the server menu with loyalty discounts. No side effects (nothing is held).
 * Spec: POST /v1/checkout/calculate rules 1-8. Throws ApiError: forbidden/not_found (point), invalid_request
 * (quantity), rate_limited, loyalty_unavailable and loyalty_rejected (certificate).
 */
export class CheckoutCalculator {
  constructor(
    private readonly deps: {
      points: PointsService;
      snapshots: CatalogSnapshots;
      zones: ZoneIndexCache;
      loyalty: LoyaltyPort | null;
      rateLimit: PhoneRateLimit;
      clock: Clock;
      db: import('@app/shared').Queryable;
    },
  ) {}

  /**
   * @param known settings already read by the caller (saves a query).
   * @param own loyalty this order attempt already holds (a retry): counted as available to it, never against it.
   * @param routed the point `cart.pointId` with its active route, already read and checked against the key by the
   *   caller (order creation; saves a query); otherwise read here (403 forbidden, 404 not_found).
   */
  async calculate(
    cred: Credential,
    cart: CartInput,
    known?: TenantSettings,
    own: OwnHolds = NO_OWN_HOLDS,
    routed?: RoutedPoint,
  ): Promise<Calculation> {
    const point = routed?.pointId === cart.pointId ? routed : await this.deps.points.requireRouted(cred, cart.pointId);
    const settings = known ?? (await new TenantsRepo(this.deps.db).settings(cred.tenantId));
    const tg = await this.deps.snapshots.forPoint(point);
    const byId = new Map((tg?.menu?.items ?? []).map((i) => [i.id, i]));
    const out = unavailableIds(tg?.stopList ?? null);
    const warnings: string[] = [];

    const lines = cart.items.map((l): PricedLine => {
      const milli = parseQuantityMilli(l.quantity);
      if (milli === null) throw new ApiError('invalid_request', {}, `items: quantity "${l.quantity}" must be > 0 with at most 3 decimals`);
      const item = byId.get(l.id.toLowerCase()) ?? null;
      const warning: ItemWarning | undefined = !item
        ? 'unknown_item'
        : item.hidden || item.gift
          ? 'hidden_item'
          : out.has(item.id)
            ? 'stop_list'
            : undefined;
      const unit = item?.priceMinor ?? 0;
      return {
        id: l.id,
        name: item?.name ?? '',
        quantity: formatQuantity(milli),
        quantityMilli: milli,
        unitPriceMinor: unit,
        lineTotalMinor: lineTotalMinor(unit, milli),
        available: warning === undefined,
        warning,
        item,
      };
    });
    if (lines.some((l) => l.warning)) warnings.push('some items cannot be ordered; an order with them will not be created');
    const orderable = lines.filter((l) => l.available);
    const subtotal = orderable.reduce((s, l) => s + l.lineTotalMinor, 0);
    if (lines.some((l) => l.lineTotalMinor > MAX_AMOUNT_MINOR) || subtotal > MAX_AMOUNT_MINOR) {
      throw new ApiError('invalid_request', {}, `the cart total exceeds the largest accepted amount (${MAX_AMOUNT_MINOR} kopecks)`);
    }

    const deliveryType = cart.deliveryType ?? (cart.location ? 'courier' : 'pickup');
    const { zone, serviceable } = await this.delivery(point, deliveryType, cart.location, warnings);
    const zonePriced = settings.zonePricing && zone !== null;
    const freeFrom = zone?.freeDeliveryFromMinor ?? null;
    const deliveryFee = zonePriced && !(freeFrom !== null && subtotal >= freeFrom) ? zone!.deliveryFeeMinor : 0;
    const minOrderMinor = zonePriced ? zone!.minOrderMinor : 0;

    const fresh = await this.loyalty(settings, point, cart, orderable, deliveryFee, warnings);
    const loyalty = fresh && withOwnHolds(fresh, own, cart.certificate?.amountMinor);
    const programDiscount = loyalty?.programDiscountMinor ?? 0;
    const couponDiscount = loyalty?.coupon.status === 'applied' ? loyalty.coupon.discountMinor : 0;
    const afterDiscounts = Math.max(0, subtotal - programDiscount - couponDiscount);
    const bonusAllowed = loyalty !== null && settings.bonusPaymentTypeCode !== null;
    if (cart.bonusToSpendMinor && loyalty && !settings.bonusPaymentTypeCode) warnings.push('bonus payment is not set up for this chain');
    const maxSpend = bonusAllowed ? Math.min(loyalty!.bonus.maxSpendMinor, afterDiscounts) : 0;
    const bonusSpend = Math.min(cart.bonusToSpendMinor ?? 0, maxSpend);
    const beforeCertificate = Math.max(0, subtotal - programDiscount - couponDiscount - bonusSpend) + deliveryFee;

    let certificate: CheckoutResultBody['certificate'];
    let certificateSpend = 0;
    if (cart.certificate) {
      const c = loyalty?.certificate;
      if (!c || c.status === 'invalid') throw new ApiError('loyalty_rejected', {}, 'certificate cannot be applied');
      certificateSpend = Math.min(cart.certificate.amountMinor, c.availableMinor, beforeCertificate);
      certificate = { status: c.status, requestedMinor: cart.certificate.amountMinor, spendMinor: certificateSpend };
    }
    const total = beforeCertificate - certificateSpend;
    // the fee is added after the cart's own cap: the total the guest pays must be an amount order creation accepts
    if (total > MAX_AMOUNT_MINOR) {
      throw new ApiError('invalid_request', {}, `the total with delivery exceeds the largest accepted amount (${MAX_AMOUNT_MINOR} kopecks)`);
    }
    const couponStatus = !cart.coupon ? 'not_requested' : loyalty?.coupon.status === 'applied' ? 'applied' : 'invalid';

    const body: CheckoutResultBody = {
      pointId: point.pointId,
      deliveryType,
      items: lines.map((l) => ({
        id: l.id,
        name: l.name,
        quantity: l.quantity,
        unitPrice: rub(l.unitPriceMinor),
        lineTotal: rub(l.lineTotalMinor),
        available: l.available,
        ...(l.warning ? { warning: l.warning } : {}),
      })),
      subtotal: rub(subtotal),
      programDiscount: rub(programDiscount),
      coupon: { status: couponStatus, discount: rub(couponDiscount) },
      bonus: { requested: cart.bonusToSpendMinor !== undefined, maxSpend: rub(maxSpend), spend: rub(bonusSpend) },
      ...(certificate ? { certificate } : {}),
      deliveryFee: rub(deliveryFee),
      minOrder: { met: subtotal >= minOrderMinor, missing: rub(Math.max(0, minOrderMinor - subtotal)) },
      total: rub(total),
      warnings,
      loyaltyUnavailable: loyalty === null,
    };
    return {
      body,
      point,
      settings,
      lines,
      loyalty,
      zone,
      serviceable,
      amounts: { subtotal, programDiscount, couponDiscount, bonusSpend, deliveryFee, certificateSpend, total },
    };
  }

  /** Zone of this point containing the location (courier), or pickup at the point. */
  private async delivery(point: PointWithRoute, type: 'courier' | 'pickup', at: LatLon | undefined, warnings: string[]) {
    if (point.deliveryTypes && !point.deliveryTypes.includes(type)) {
      warnings.push(`the point does not offer ${type} delivery`);
      return { zone: null, serviceable: false };
    }
    if (type === 'pickup') return { zone: null, serviceable: true };
    if (!at) {
      warnings.push('courier delivery needs location to price the delivery');
      return { zone: null, serviceable: false };
    }
    const index = await this.deps.zones.forTenant(point.tenantId);
    const zone = index.choose(
      at,
      (id) => id === point.pointId,
      () => (point.lat != null && point.lon != null ? { lat: point.lat, lon: point.lon } : null),
    );
    if (!zone) warnings.push('the location is outside the delivery zones of the point');
    return { zone, serviceable: zone !== null };
  }

  /**
   * Loyalty for the orderable lines; null = unavailable or not connected (cart computed without coupon and bonus).
   * A certificate needs the loyalty service and a certificate payment type: otherwise 503 loyalty_unavailable.
   */
  private async loyalty(
    settings: TenantSettings,
    point: PointWithRoute & { route: NonNullable<PointWithRoute['route']> },
    cart: CartInput,
    orderable: PricedLine[],
    deliveryFeeMinor: number,
    warnings: string[],
  ): Promise<CalculateResult | null> {
    const wantsCertificate = cart.certificate !== undefined;
    if (wantsCertificate && !settings.certificatePaymentTypeCode)
      throw new ApiError('loyalty_unavailable', {}, 'certificate payment type not set up');
    if (!this.deps.loyalty || !settings.loyaltyEnabled) {
      if (wantsCertificate) throw new ApiError('loyalty_unavailable', {}, 'loyalty not connected');
      return null;
    }
    if (cart.phone) await this.deps.rateLimit.consume(cart.phone);
    try {
      return await this.deps.loyalty.calculate({
        organizationId: point.route.organizationId,
        phone: cart.phone,
        lines: orderable.map((l) => ({
          productId: l.item!.id,
          quantityMilli: l.quantityMilli,
          unitPriceMinor: l.unitPriceMinor,
          lineTotalMinor: l.lineTotalMinor,
        })),
        coupon: cart.coupon,
        bonusToSpendMinor: cart.bonusToSpendMinor,
        certificate: cart.certificate,
        deliveryFeeMinor,
      });
    } catch (err) {
      if (!isLoyaltyError(err)) throw err;
      if (wantsCertificate) throw new ApiError('loyalty_unavailable', {}, `loyalty: ${err.message}`);
      warnings.push('the loyalty service is unavailable: coupon and bonus are not applied');
      return null;
    }
  }
}
