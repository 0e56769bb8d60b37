/**
 * Response and request shapes of the Delivery Partner API. Spec: delivery-partner-api.md, "Resources and their
 * fields", "States and transitions", Endpoints. Money is minor units (kopecks) of RUB; timestamps are RFC 3339
 * strings; times in schedules are Moscow time.
 */
export interface Money {
  amountMinor: number;
  currency: 'RUB' | string;
}
export interface LatLon {
  lat: number;
  lon: number;
}

export interface Point {
  externalPointId: string;
  active: boolean;
  streetsSyncedAt: string;
  name: string | null;
  address: string | null;
  location: LatLon | null;
  phone: string | null;
  timezone: string;
  /** weekday 0 = Sunday; HH:MM Moscow time; close <= open crosses midnight. */
  schedule: { weekday: number; open: string; close: string }[] | null;
  isOpenNow: boolean;
  acceptsOrders: boolean;
  deliveryTypes: ('courier' | 'pickup')[] | null;
}
export interface PointStatus {
  acceptsOrders: boolean;
  terminalAlive: boolean;
  isOpenNow: boolean;
  reason: 'terminal_offline' | 'closed' | null | string;
}

export interface MenuItem {
  id: string;
  categoryId: string;
  name: string;
  description: string;
  price: Money;
  weightGrams: number;
  nutrition?: Record<
    'kcalPer100g' | 'proteinPer100g' | 'fatPer100g' | 'carbsPer100g' | 'kcalPortion' | 'proteinPortion' | 'fatPortion' | 'carbsPortion',
    number
  >;
  available: boolean;
  unavailableReason: 'stop_list' | null | string;
}
export interface Menu {
  pointId: string;
  revision: string;
  currency: string;
  categories: { id: string; name: string; sort: number; parentId: string | null }[];
  items: MenuItem[];
  syncedAt: string;
  stale: boolean;
}
export interface StopList {
  pointId: string;
  revision: string;
  items: { id: string; balance: number }[];
  syncedAt: string;
  stale: boolean;
}
/** Result of a conditional GET: `notModified` on 304, else the resource and its ETag. */
export type Conditional<T> = { notModified: true } | { notModified: false; etag: string | null; data: T };
export interface CatalogRevision {
  points: Record<string, { menu: string; stopList: string }>;
}
export interface LegacyProducts {
  externalPointId: string;
  products: { externalProductId: string; kind: string }[];
}
export interface DeliveryZone {
  id: string;
  name: string;
  polygon: [number, number][];
  minOrder: Money;
  deliveryFee: Money;
  freeDeliveryFrom: Money | null;
  etaMinutes: { min: number; max: number };
  priority: number;
  active: boolean;
}
export interface ResolveRequest {
  deliveryType: 'courier' | 'pickup';
  location?: LatLon;
  address?: { city?: string; street: string; house?: string };
}
export type ResolveResult =
  | {
      serviceable: true;
      pointId: string;
      zoneId: string;
      minOrder: Money;
      deliveryFee: Money;
      freeDeliveryFrom: Money | null;
      etaMinutes: { min: number; max: number };
      street: { status: 'ok' | 'ambiguous' | 'not_found' | 'unknown'; name: string | null };
    }
  | { serviceable: false; reason: 'outside_zones' | 'no_location' | 'geocoding_required' | 'point_not_accepting' | string };
export interface AddressCheckRequest {
  externalPointId: string;
  street: string;
  house: string;
  city: string;
}
export interface AddressCheckResult {
  status: 'ok' | 'ambiguous' | 'not_found' | 'unknown';
  street?: string;
  candidates?: { name: string; city: string }[];
  house?: string;
}

export interface CheckoutRequest {
  pointId: string;
  deliveryType?: 'courier' | 'pickup';
  location?: LatLon;
  /** quantity: decimal string > 0, up to 3 decimals. */
  items: { id: string; quantity: string }[];
  guest?: { phone: string };
  coupon?: string;
  bonusToSpend?: Money;
  certificate?: { serial: string; amountMinor: number };
  deliverAt?: string;
}
export interface CheckoutResult {
  pointId: string;
  deliveryType: string;
  items: {
    id: string;
    name: string;
    quantity: string;
    unitPrice: Money;
    lineTotal: Money;
    available: boolean;
    warning?: 'stop_list' | 'unknown_item' | 'hidden_item';
  }[];
  subtotal: Money;
  programDiscount: Money;
  coupon: { status: 'not_requested' | 'applied' | 'invalid'; discount: Money };
  bonus: { requested: boolean; maxSpend: Money; spend: Money };
  certificate?: { status: string; requestedMinor: number; spendMinor: number };
  deliveryFee: Money;
  minOrder: { met: boolean; missing: Money };
  total: Money;
  warnings: string[];
  loyaltyUnavailable: boolean;
  calculationId: string;
  expiresAt: string;
}

export interface OrderRequest {
  schemaVersion: 1;
  source: string;
  externalOrderId: string;
  externalPointId: string;
  createdAt?: string;
  deliverAt?: string;
  guest?: { externalClientId?: string; name?: string; phone?: string };
  address: { city?: string; street: string; house: string; flat?: string; entrance?: string; floor?: string; doorphone?: string; comment?: string };
  items: { externalProductId: string; quantity: string; price: Money }[];
  total: Money;
  comment?: string;
  deliveryType?: 'courier' | 'pickup';
  location?: LatLon;
  persons?: number;
  callBack?: boolean;
  coupon?: string;
  bonusToSpend?: Money;
  certificate?: { serial: string; amountMinor: number };
  calculationId?: string;
  payment?: {
    method: 'online' | 'cash' | 'card_on_delivery';
    paid: boolean;
    externalPaymentId?: string;
    amountMinor: number;
    change?: { from: number };
  };
}

export type OrderState =
  | 'queued'
  | 'claimed'
  | 'prepared'
  | 'create_sending'
  | 'created_verified'
  | 'reconciliation_required'
  | 'manual_review'
  | 'rejected_final'
  | 'cancelled';
export type DeliveryStatus =
  | 'Unconfirmed'
  | 'New'
  | 'Waiting'
  | 'CookingStarted'
  | 'CookingCompleted'
  | 'OnWay'
  | 'Delivered'
  | 'Closed'
  | 'Cancelled';

/** Order view of create, lookup and status. */
export interface OrderView {
  id: string;
  externalOrderId: string;
  source: string;
  state: OrderState | string;
  payloadSha256: string;
  route: {
    tenantId: string;
    source: string;
    externalPointId: string;
    organizationId: string;
    terminalGroupId: string;
    orderTypeId: string;
    operatorUserId: string;
    originName: string;
  };
  posOrderId: string | null;
  posDeliveryId: string | null;
  deliveryStatus: DeliveryStatus | null;
  deliveryStatusAt: string | null;
  cancelState: 'none' | 'requested' | 'rejected' | string;
  cancelReason: string | null;
  cancelDetail: 'not_new' | 'sdk_error' | 'not_found' | 'no_cancel_cause' | null | string;
  createdAt: string;
  updatedAt: string;
}
/** The order inside a webhook: the Order view without internal fields (route holds only source and externalPointId). */
export interface WebhookOrder extends Omit<OrderView, 'route'> {
  route: { source: string; externalPointId: string };
}
export interface CancelRequest {
  reason: 'guest_request' | 'payment_failed' | 'duplicate' | 'other';
  comment: string;
}
/** Cancel outcome: 200 cancelled at once or already final; 202 passed to the POS. */
export interface CancelResult {
  status: 200 | 202;
  order: OrderView;
}

// Planned parts of the spec, served to sources with the matching per-source switch (the server's
// docs/planned-features.md); other sources get 404 not_found from these endpoints.

/** GET /v1/guests/{phone}/loyalty (switch guest-api). Money in kopecks. */
export interface GuestLoyalty {
  found: boolean;
  pointId: string;
  balances: { programId: string; name: string | null; type: string; balanceMinor: number; currency: 'RUB' }[];
  level: { id: string; name: string } | null;
  categories: { id: string; name: string }[];
  coupons: { number: string; name: string | null; percent: number | null; amountMinor: number | null; validTo: string | null }[];
}

/** GET /v1/guests/{phone}/orders (switch guest-api): newest first; pass `nextCursor` for the next page. */
export interface GuestOrdersPage {
  orders: OrderView[];
  nextCursor: string | null;
}

/** One entry of GET /v1/guests/{phone}/addresses (switch guest-api). */
export interface GuestAddress {
  address: { city: string | null; street: string; house: string; flat: string | null; entrance: string | null; floor: string | null };
  location: { lat: number; lon: number } | null;
  lastUsedAt: string;
  zone: { zoneId: string; pointId: string; name: string } | null;
}

/** GET /v1/status (switch guest-api): sync freshness per point of the key. */
export interface SyncStatus {
  service: { version: string; time: string };
  points: {
    pointId: string;
    active: boolean;
    menu: { revision: string | null; pushedAt: string | null };
    stopList: { revision: string | null; pushedAt: string | null };
    pos: { lastHeartbeatAt: string | null; heartbeatAgeSeconds: number | null; alive: boolean };
  }[];
}
