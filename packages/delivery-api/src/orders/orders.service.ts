import { isUniqueViolation, type Clock, type Db, type IdSource } from '@app/shared';
import { outcomeOfError, type OrderMetrics } from './order-metrics.js';
import type { Credential } from '../auth/credentials.repo.js';
import type { CalculationTokens } from '../checkout/calculation-token.js';
import type { Calculation, CheckoutCalculator } from '../checkout/calculator.js';
import { lineTotalMinor, parseQuantityMilli } from '../common/money.js';
import type { TerminalGroupsRepo } from '../catalog/terminal-groups.repo.js';
import { ApiError, invalid } from '../errors.js';
import type { PointsRepo } from '../points/points.repo.js';
import type { ZonesService } from '../zones/zones.service.js';
import type { OwnHolds } from '../checkout/own-holds.js';
import type { StepObserver } from '../common/recovery-points.js';
import type { Attempt, LegRecord } from '../holds/legs.repo.js';
import type { RoutedPoint } from '../catalog/catalog-revision-cache.js';
import type { LoyaltyHolds, WantedLeg } from '../holds/loyalty-holds.js';
import type { OrderEvent, OrderEvents } from './order-events.js';
import type { OrderRequest } from './order-request.js';
import type { OrderRoute, OrderView } from '@app/delivery-contract';
import { OrdersRepo, toView, type OrderRecord } from './orders.repo.js';
import { payloadSha256, withoutServerOwned } from './payload-hash.js';
import { checkoutPayload, legacyPayload, type PosOrderPayload } from './pos-payload.js';

/** Result of order creation: 201 for a new order, 200 for an idempotent repeat. */
export interface CreateResult {
  status: 200 | 201;
  order: OrderView;
}

export interface OrdersDeps {
  db: Db;
  clock: Clock;
  ids: IdSource;
  calculator: CheckoutCalculator;
  tokens: CalculationTokens;
  holds: LoyaltyHolds;
  events: OrderEvents;
  points: PointsRepo;
  zones: ZonesService;
  terminalGroups: TerminalGroupsRepo;
  steps: StepObserver;
  /** Creation outcomes at /metrics; default none. */
  metrics?: OrderMetrics;
}

/** Creates and looks up orders. Spec: POST /v1/orders rules 1-12, GET /v1/orders lookups. */
export class OrdersService {
  constructor(private readonly deps: OrdersDeps) {}

  /**
   * POST /v1/orders (rules 1-12): 201 with the new order, 200 for an idempotent repeat; throws ApiError with the
   * spec's code otherwise. Each outcome is counted (`created`, `replayed` or the error code).
   */
  async create(cred: Credential, req: OrderRequest): Promise<CreateResult> {
    try {
      const r = await this.createOrder(cred, req);
      this.deps.metrics?.outcome(r.status === 201 ? 'created' : 'replayed');
      return r;
    } catch (err) {
      this.deps.metrics?.outcome(outcomeOfError(err));
      throw err;
    }
  }

  private async createOrder(cred: Credential, req: OrderRequest): Promise<CreateResult> {
    if (req.source !== cred.source) throw new ApiError('forbidden', {}, 'source not allowed for this key');
    if (!cred.pointIds.includes(req.externalPointId)) throw new ApiError('forbidden', {}, 'point not allowed for this key');
    this.validateFields(req);
    const hash = payloadSha256(req as unknown as Record<string, unknown>);
    const repo = new OrdersRepo(this.deps.db);
    const attempt: Attempt = { tenantId: cred.tenantId, source: req.source, externalOrderId: req.externalOrderId, payloadSha256: hash };
    // one round trip: the idempotency check and this attempt's own holds (used below for a checkout order)
    const { order: existing, legs: attemptLegs, others } = await repo.byExternalIdWithLegs(attempt);
    if (existing) return this.repeat(existing, hash);

    const point = await this.deps.points.getForSource(cred.tenantId, req.source, req.externalPointId);
    if (!point?.route?.active) throw new ApiError('route_mapping_not_found', {}, `no active route for ${req.source} at point ${req.externalPointId}`);
    const route: OrderRoute = { tenantId: cred.tenantId, source: req.source, externalPointId: point.pointId, ...point.route };
    delete (route as Partial<typeof point.route>).active;
    const orderId = this.deps.ids.uuid();
    const street = await this.deps.zones.streetOf(point, req.address.street);
    const ctx = { orderId, route, req, street };

    let payload: PosOrderPayload;
    let calc: Calculation | null = null;
    let legs: LegRecord[] = [];
    if (req.payment) {
      calc = await this.verifyCheckout(cred, req, ownHolds(attemptLegs), point as RoutedPoint, others);
      payload = checkoutPayload(ctx, calc);
      legs = await this.deps.holds.holdAll(attempt, wantedLegs(req, calc), orderId);
      // a reused held leg keeps its recorded amount (spec: Loyalty hold legs); the fresh calculation must agree
      for (const l of legs) {
        const want = l.kind === 'coupon' ? calc.amounts.couponDiscount : l.kind === 'bonus' ? calc.amounts.bonusSpend : calc.amounts.certificateSpend;
        if (l.amountMinor !== want) throw new ApiError('price_changed', { calculation: calc.body }, `held ${l.kind} amount differs`);
      }
    } else {
      payload = legacyPayload(ctx, await this.mapLegacyProducts(point.route.organizationId, point.route.terminalGroupId, req));
    }
    const now = this.deps.clock.now();
    const record: OrderRecord = {
      id: orderId,
      tenantId: cred.tenantId,
      source: req.source,
      externalOrderId: req.externalOrderId,
      pointId: point.pointId,
      organizationId: route.organizationId,
      terminalGroupId: route.terminalGroupId,
      kind: req.payment ? 'checkout' : 'legacy',
      state: 'queued',
      payloadSha256: hash,
      request: withoutServerOwned(req as unknown as Record<string, unknown>),
      posPayload: payload,
      route,
      guestPhone: req.guest.phone,
      paymentMethod: req.payment?.method ?? null,
      bonusSpendMinor: calc?.amounts.bonusSpend ?? 0,
      paidMinor: req.payment?.amountMinor ?? 0,
      claimId: null,
      claimExpiresAt: null,
      posOrderId: null,
      posDeliveryId: null,
      deliveryStatus: null,
      deliveryStatusAt: null,
      cancelState: 'none',
      cancelReason: null,
      cancelDetail: null,
      cancelRequestedAt: null,
      cancelDispatchedAt: null,
      cancelRequestedBy: null,
      accrualState: 'none',
      accrualAttempts: 0,
      accrualError: null,
      createdAt: now,
      updatedAt: now,
    };
    // One statement (atomic on its own, no BEGIN/COMMIT): the order row, which is the idempotency record, its
    // legs linked and its events in the outbox — the recovery point `order.after_insert` of docs/loyalty.md.
    const events: OrderEvent[] = [{ type: 'order.state_changed', order: toView(record), occurredAt: now }];
    if (record.kind === 'checkout') events.push({ type: 'order.payment_recorded', order: toView(record), occurredAt: now });
    let created: boolean;
    try {
      created = await repo.create(
        record,
        legs.map((l) => l.id),
        this.deps.events.inStatement(events),
      );
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // a concurrent request with the same (source, externalOrderId) won: answer as a repeat
      const winner = await repo.byExternalId(cred.tenantId, req.source, req.externalOrderId);
      if (!winner) throw err;
      return this.repeat(winner, hash);
    }
    if (!created) {
      // a leg is no longer `held` and unlinked: linked by a concurrent request with the same body that won (a
      // repeat), or claimed for release meanwhile (409)
      const winner = await repo.byExternalId(cred.tenantId, req.source, req.externalOrderId);
      if (winner) return this.repeat(winner, hash);
      throw new ApiError('hold_in_progress', {}, 'a hold of this order changed while the order was created');
    }
    this.deps.steps.reached('order.after_insert');
    return { status: 201, order: toView(record) };
  }

  /** Rule 1: same body → 200 with the order (no new price check); different body → 409 idempotency_conflict. */
  private repeat(existing: OrderRecord, hash: string): CreateResult {
    if (existing.payloadSha256 !== hash) throw new ApiError('idempotency_conflict', {}, 'same externalOrderId with a different body');
    return { status: 200, order: toView(existing) };
  }

  /** Field rules of the Order request table that a schema cannot express. */
  private validateFields(req: OrderRequest): void {
    let sum = 0;
    for (const [i, l] of req.items.entries()) {
      const milli = parseQuantityMilli(l.quantity);
      if (milli === null) throw invalid(`items[${i}].quantity must be > 0 with at most 3 decimals`);
      sum += lineTotalMinor(l.price.amountMinor, milli);
    }
    if (sum !== req.total.amountMinor) throw invalid(`total ${req.total.amountMinor} is not the sum of the lines ${sum}`);
    const p = req.payment;
    if (!p) {
      if (req.calculationId || req.coupon || req.bonusToSpend || req.certificate)
        throw invalid('calculationId, coupon, bonusToSpend and certificate need payment (checkout order)');
      return;
    }
    if (!req.calculationId) throw invalid('calculationId is required for a checkout order');
    if (p.method === 'online' && (!p.paid || !p.externalPaymentId))
      throw invalid('online payment needs paid: true and externalPaymentId (create after payment)');
    if (p.change && p.method !== 'cash') throw invalid('change is for cash only');
    if (p.change && p.change.from < p.amountMinor) throw invalid('change.from is less than the amount');
  }

  /**
   * Rules 2-5 and 8: token binding, fresh calculation, catalog prices, warnings, minimum, serviceability, mapping.
   * A body whose calculation is valid and newer than the holds of another body of the same externalOrderId (the
   * partner corrected the order after a 409 price_changed) first releases those holds: only one body can become the
   * order, and the fresh calculation must see the guest's coupon and balance as they are for this body (docs/loyalty.md
   * "A corrected body").
   */
  private async verifyCheckout(cred: Credential, req: OrderRequest, own: OwnHolds, point: RoutedPoint, others: LegRecord[]): Promise<Calculation> {
    const why = await this.deps.tokens.check(
      req.calculationId!,
      {
        tenantId: cred.tenantId,
        source: req.source,
        pointId: req.externalPointId,
        deliveryType: req.deliveryType,
        items: req.items.map((l) => [l.externalProductId.toLowerCase(), parseQuantityMilli(l.quantity)!]),
        coupon: req.coupon ?? null,
        bonusToSpendMinor: req.bonusToSpend?.amountMinor ?? null,
        certificate: req.certificate ?? null,
        phone: req.guest.phone,
        totalMinor: req.payment!.amountMinor,
      },
      this.deps.clock.now(),
    );
    if (!why) {
      const issued = this.deps.tokens.issuedAt(req.calculationId!);
      const superseded = others.filter((l) => l.state === 'held' && l.orderId === null && issued !== null && l.updatedAt < issued);
      if (superseded.length > 0) await this.deps.holds.releaseUnlinked(superseded);
    }
    const cart = {
      pointId: req.externalPointId,
      deliveryType: req.deliveryType,
      location: req.location,
      items: req.items.map((l) => ({ id: l.externalProductId, quantity: l.quantity })),
      phone: req.guest.phone,
      coupon: req.coupon,
      bonusToSpendMinor: req.bonusToSpend?.amountMinor,
      certificate: req.certificate,
    };
    const calc = await this.deps.calculator.calculate(cred, cart, undefined, own, point);
    const gift = calc.lines.find((l) => l.item?.gift);
    if (gift) throw new ApiError('product_not_orderable', {}, `${gift.id} is a gift/promo item`);
    const wantsLoyalty = req.coupon !== undefined || (req.bonusToSpend?.amountMinor ?? 0) > 0 || req.certificate !== undefined;
    if (wantsLoyalty && calc.loyalty === null) throw new ApiError('loyalty_unavailable', {}, 'coupon or bonus while loyalty is unavailable');
    const changed = (why: string) => new ApiError('price_changed', { calculation: calc.body }, why);
    if (why) throw changed(why);
    if (calc.lines.some((l) => l.warning)) throw changed('a line has a warning');
    req.items.forEach((l, i) => {
      if (l.price.amountMinor !== calc.lines[i].unitPriceMinor) throw changed(`items[${i}] price differs from the catalog`);
    });
    if (!calc.body.minOrder.met) throw changed('minimum order not met');
    if (!calc.serviceable) throw changed('delivery not serviceable');
    if (req.payment!.amountMinor !== calc.amounts.total) throw changed('payment.amountMinor differs from the total');
    const unmapped = [...(calc.loyalty?.discounts ?? []), ...(calc.loyalty?.gifts ?? [])].some((d) => d.posDiscountId === null);
    if (unmapped) throw new ApiError('loyalty_unmapped', {}, 'a loyalty discount has no mapped POS discount');
    return calc;
  }

  /** Legacy lines: partner product id → POS product through the pushed mapping (422 product_mapping_not_found). */
  private async mapLegacyProducts(organizationId: string, terminalGroupId: string, req: OrderRequest): Promise<string[]> {
    const [mappings, menu] = await Promise.all([
      this.deps.terminalGroups.document('product_mappings', organizationId, terminalGroupId),
      this.deps.terminalGroups.document('menu', organizationId, terminalGroupId),
    ]);
    const map = new Map((mappings ?? []).map((m) => [m.externalProductId, m.productId]));
    const items = new Map((menu?.items ?? []).map((i) => [i.id, i]));
    return req.items.map((l) => {
      const id = map.get(l.externalProductId);
      if (!id) throw new ApiError('product_mapping_not_found', {}, `no mapping for ${l.externalProductId}`);
      if (items.get(id)?.gift) throw new ApiError('product_not_orderable', {}, `${l.externalProductId} maps to a gift/promo item`);
      return id;
    });
  }

  /** Spec: GET /v1/orders?externalOrderId — the caller's source; 404 when absent or outside the key's points. */
  async byExternalId(cred: Credential, externalOrderId: string): Promise<OrderView> {
    const o = await new OrdersRepo(this.deps.db).byExternalId(cred.tenantId, cred.source!, externalOrderId);
    if (!o || !cred.pointIds.includes(o.pointId)) throw new ApiError('not_found', {}, 'no such order');
    return toView(o);
  }

  /** Spec: GET /v1/orders/{id}?source — 400 for a non-UUID id, 403 for a foreign source, 404 absent/outside the key. */
  async byId(cred: Credential, id: string, source: string): Promise<OrderView> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw invalid('order id is not a UUID');
    if (source !== cred.source) throw new ApiError('forbidden', {}, 'foreign source');
    const o = await new OrdersRepo(this.deps.db).byId(id.toLowerCase());
    if (!o || o.tenantId !== cred.tenantId || o.source !== cred.source || !cred.pointIds.includes(o.pointId))
      throw new ApiError('not_found', {}, 'no such order');
    return toView(o);
  }
}

/**
 * What this attempt (same body) already holds, to be reused (spec: Loyalty hold legs), from its legs. A leg still
 * `holding` or `releasing` is in progress → 409 hold_in_progress before any calculation or loyalty call.
 */
function ownHolds(legs: LegRecord[]): OwnHolds {
  const busy = legs.find((l) => l.state === 'holding' || l.state === 'releasing');
  if (busy) throw new ApiError('hold_in_progress', {}, `${busy.kind} hold of this order is ${busy.state}`);
  const own: OwnHolds = {};
  // a leg whose call failed with an unknown outcome (timeout, 5xx) may be held in the loyalty service: it is this
  // attempt's too; the retry holds it with the same key, and the loyalty service arbitrates if it was not
  const mine = legs.filter((x) => x.state === 'held' || (x.state === 'failed' && x.lastError?.startsWith('unavailable:')));
  for (const l of mine) {
    if (l.kind === 'coupon') own.coupon = { amountMinor: l.amountMinor, discount: l.discount };
    else if (l.kind === 'bonus') own.bonusMinor = l.amountMinor;
    else own.certificateMinor = l.amountMinor;
  }
  return own;
}

/** The legs rule 8 holds: coupon (its discount), bonus (the spend), certificate (its spend); zero amounts are not held. */
export function wantedLegs(req: OrderRequest, calc: Calculation): WantedLeg[] {
  const common = { organizationId: calc.point.route.organizationId, phone: req.guest.phone, coupon: null, certificateSerial: null };
  const legs: WantedLeg[] = [];
  if (req.coupon && calc.amounts.couponDiscount > 0) {
    const discount = calc.loyalty?.discounts.find((d) => d.kind === 'coupon') ?? null;
    legs.push({ ...common, kind: 'coupon', amountMinor: calc.amounts.couponDiscount, coupon: req.coupon, discount });
  }
  if (calc.amounts.bonusSpend > 0) legs.push({ ...common, kind: 'bonus', amountMinor: calc.amounts.bonusSpend });
  if (req.certificate && calc.amounts.certificateSpend > 0)
    legs.push({ ...common, kind: 'certificate', amountMinor: calc.amounts.certificateSpend, certificateSerial: req.certificate.serial });
  return legs;
}
