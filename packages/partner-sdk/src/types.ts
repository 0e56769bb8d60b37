/**
 * Response and request shapes of the Delivery Partner API, derived from the contract's TypeBox schemas
 * (`@app/delivery-contract`), which the API validates and serialises with: the SDK cannot drift from the
 * service. Spec: delivery-partner-api.md, "Resources and their fields", "States and transitions", Endpoints.
 * Money is minor units (kopecks) of RUB; timestamps are RFC 3339 strings; times in schedules are Moscow time.
 */
import type { OrderView } from '@app/delivery-contract';

export type {
  SyncStatus,
  GuestAddress,
  GuestLoyalty,
  GuestOrdersPage,
  AddressCheckRequest,
  AddressCheckResult,
  CancelRequest,
  CatalogRevision,
  CheckoutRequest,
  CheckoutResult,
  DeliveryStatus,
  DeliveryZone,
  LegacyProducts,
  Menu,
  MenuItem,
  Money,
  OrderRequest,
  OrderState,
  OrderView,
  Point,
  PointStatus,
  ResolveRequest,
  ResolveResult,
  StopList,
  WebhookOrder,
} from '@app/delivery-contract';

/** WGS 84 coordinates in degrees. */
export interface LatLon {
  lat: number;
  lon: number;
}

/** Result of a conditional GET: `notModified` on 304, else the resource and its ETag. */
export type Conditional<T> = { notModified: true } | { notModified: false; etag: string | null; data: T };

/** Cancel outcome: 200 cancelled at once or already final; 202 passed to the POS. */
export interface CancelResult {
  status: 200 | 202;
  order: OrderView;
}

// GuestLoyalty, GuestOrdersPage, GuestAddress and SyncStatus (above) are planned parts of the spec, served to
// sources with the matching per-source switch (the server's docs/planned-features.md); other sources get 404
// not_found from these endpoints.
