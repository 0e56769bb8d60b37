import { buildSignedHeaders, escapePath, randomIds, systemClock, type Clock, type IdSource } from '@app/shared';
import { PartnerConnectionError, PartnerTimeoutError, toPartnerApiError } from './errors.js';
import { DEFAULT_RETRY, retryDecision, retryDelayMs, type RetryOptions } from './retry.js';
import type * as T from './types.js';

/** Options of {@link PartnerClient}. The secret stays on the partner backend (spec: Authentication). */
export interface PartnerClientOptions {
  /** e.g. `https://api.example.ru` (no trailing `/v1`). */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  fetch?: typeof globalThis.fetch;
  clock?: Clock;
  ids?: IdSource;
  /** Extra attempts for failures worth repeating (see retry.ts `retryDecision`); default 2, 0 = none. */
  maxRetries?: number;
  /** Back-off: first step and cap in ms (defaults 500 and 60 000); the server's Retry-After wins, capped too. */
  retry?: Partial<Omit<RetryOptions, 'maxRetries'>>;
  /** Per-attempt time limit in ms (default 30 000); then PartnerTimeoutError. */
  timeoutMs?: number;
  /** Waits between attempts (tests inject a recorder). */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source in [0, 1). */
  random?: () => number;
}

/** A raw answer: status, headers, parsed JSON body (undefined for an empty body), and the X-Request-ID sent. */
export interface PartnerResponse<B = unknown> {
  status: number;
  headers: Headers;
  body: B;
  requestId: string;
}

/**
 * Typed, signing client of the Delivery Partner API. Every request gets a new X-Request-ID and is signed over
 * the exact body bytes it sends (the body is serialised once). Non-2xx answers (except 304) throw PartnerApiError.
 */
export class PartnerClient {
  private readonly fetchFn: typeof globalThis.fetch;
  private readonly clock: Clock;
  private readonly ids: IdSource;

  constructor(private readonly o: PartnerClientOptions) {
    this.fetchFn = o.fetch ?? globalThis.fetch;
    this.clock = o.clock ?? systemClock;
    this.ids = o.ids ?? randomIds;
  }

  /**
   * Signed request. `path` starts with `/v1/...`; `query` is appended unsigned (spec: query is never signed).
   * Failures worth repeating are retried up to `maxRetries` times with jittered back-off honouring Retry-After,
   * each attempt re-signed (a new X-Request-ID, except after 503 authentication_unavailable, where the spec asks
   * for the same one). Throws PartnerApiError (non-2xx except 304), PartnerConnectionError, PartnerTimeoutError.
   */
  async request<B = unknown>(
    method: 'GET' | 'POST',
    path: string,
    opts: { query?: Record<string, string>; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<PartnerResponse<B>> {
    const signedPath = escapePath(path);
    const retry: RetryOptions = { ...DEFAULT_RETRY, ...this.o.retry, maxRetries: this.o.maxRetries ?? DEFAULT_RETRY.maxRetries };
    let requestId = this.ids.uuid();
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once<B>(method, signedPath, requestId, opts);
      } catch (err) {
        const d = retryDecision(err, method, path);
        if (!d.retry || attempt >= retry.maxRetries) throw err;
        const after = err instanceof Error && 'retryAfter' in err ? (err as { retryAfter: string | null }).retryAfter : null;
        await this.sleep(retryDelayMs(attempt + 1, after, retry, this.o.random ?? Math.random));
        if (!d.sameRequestId) requestId = this.ids.uuid();
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return this.o.sleep ? this.o.sleep(ms) : new Promise((r) => setTimeout(r, ms));
  }

  /** One signed attempt. */
  private async once<B>(
    method: 'GET' | 'POST',
    signedPath: string,
    requestId: string,
    opts: { query?: Record<string, string>; body?: unknown; headers?: Record<string, string> },
  ): Promise<PartnerResponse<B>> {
    const bytes = opts.body === undefined ? '' : JSON.stringify(opts.body);
    const auth = buildSignedHeaders({
      apiKey: this.o.apiKey,
      secret: this.o.apiSecret,
      method,
      path: signedPath,
      body: bytes,
      requestId,
      now: this.clock.now(),
    });
    const qs = opts.query ? `?${new URLSearchParams(opts.query).toString()}` : '';
    const timeoutMs = this.o.timeoutMs ?? 30_000;
    let res: Response;
    let text: string;
    try {
      res = await this.fetchFn(`${this.o.baseUrl.replace(/\/+$/, '')}${signedPath}${qs}`, {
        method,
        headers: { ...auth, ...(opts.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...opts.headers },
        body: opts.body === undefined ? undefined : bytes,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      const name = (err as { name?: string })?.name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new PartnerTimeoutError(requestId, timeoutMs);
      throw new PartnerConnectionError(requestId, { cause: err });
    }
    let body: unknown;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        body = text; // 413 is plain text (spec: Errors)
      }
    }
    if (res.status >= 300 && res.status !== 304) throw toPartnerApiError(res.status, body, requestId, res.headers.get('retry-after'));
    return { status: res.status, headers: res.headers, body: body as B, requestId };
  }

  private async get<B>(path: string, query?: Record<string, string>): Promise<B> {
    return (await this.request<B>('GET', path, { query })).body;
  }

  private async post<B>(path: string, body: unknown): Promise<B> {
    return (await this.request<B>('POST', path, { body })).body;
  }

  private async conditional<B>(path: string, etag?: string): Promise<T.Conditional<B>> {
    const r = await this.request<B>('GET', path, { headers: etag ? { 'If-None-Match': etag } : {} });
    if (r.status === 304) return { notModified: true };
    return { notModified: false, etag: r.headers.get('etag'), data: r.body };
  }

  /** GET /v1/points. */
  async listPoints(): Promise<T.Point[]> {
    return (await this.get<{ points: T.Point[] }>('/v1/points')).points;
  }
  /** GET /v1/points/{id}/status. */
  pointStatus(pointId: string): Promise<T.PointStatus> {
    return this.get(`/v1/points/${pointId}/status`);
  }
  /** GET /v1/points/{id}/menu with If-None-Match; `{notModified: true}` on 304. */
  menu(pointId: string, opts: { etag?: string } = {}): Promise<T.Conditional<T.Menu>> {
    return this.conditional(`/v1/points/${pointId}/menu`, opts.etag);
  }
  /** GET /v1/points/{id}/stop-list with If-None-Match. */
  stopList(pointId: string, opts: { etag?: string } = {}): Promise<T.Conditional<T.StopList>> {
    return this.conditional(`/v1/points/${pointId}/stop-list`, opts.etag);
  }
  /** GET /v1/catalog/revision. */
  catalogRevision(): Promise<T.CatalogRevision> {
    return this.get('/v1/catalog/revision');
  }
  /** GET /v1/points/{id}/products (legacy mapping). */
  products(pointId: string): Promise<T.LegacyProducts> {
    return this.get(`/v1/points/${pointId}/products`);
  }
  /** GET /v1/points/{id}/delivery-zones. */
  async deliveryZones(pointId: string): Promise<T.DeliveryZone[]> {
    return (await this.get<{ zones: T.DeliveryZone[] }>(`/v1/points/${pointId}/delivery-zones`)).zones;
  }
  /** POST /v1/delivery/resolve. */
  resolveDelivery(body: T.ResolveRequest): Promise<T.ResolveResult> {
    return this.post('/v1/delivery/resolve', body);
  }
  /** POST /v1/addresses/check. */
  checkAddress(body: T.AddressCheckRequest): Promise<T.AddressCheckResult> {
    return this.post('/v1/addresses/check', body);
  }
  /** POST /v1/checkout/calculate (no side effects). */
  calculateCheckout(body: T.CheckoutRequest): Promise<T.CheckoutResult> {
    return this.post('/v1/checkout/calculate', body);
  }
  /** POST /v1/orders; 201 created or 200 idempotent repeat (same body). 409 price_changed carries `body.calculation`. */
  async createOrder(body: T.OrderRequest): Promise<{ status: number; order: T.OrderView }> {
    const r = await this.request<T.OrderView>('POST', '/v1/orders', { body });
    return { status: r.status, order: r.body };
  }
  /** GET /v1/orders?externalOrderId=... (orders of the key's source). */
  getOrderByExternalId(externalOrderId: string): Promise<T.OrderView> {
    return this.get('/v1/orders', { externalOrderId });
  }
  /** GET /v1/orders/{id}?source=... */
  getOrder(id: string, source: string): Promise<T.OrderView> {
    return this.get(`/v1/orders/${id}`, { source });
  }
  /** POST /v1/orders/{id}/cancel: 200 cancelled or already final, 202 passed to the POS; 409 cancel_rejected throws. */
  async cancelOrder(id: string, body: T.CancelRequest): Promise<T.CancelResult> {
    const r = await this.request<T.OrderView>('POST', `/v1/orders/${id}/cancel`, { body });
    return { status: r.status as 200 | 202, order: r.body };
  }
  /** GET /v1/guests/{phone}/loyalty?pointId= (switch guest-api; the partner authenticated the guest). */
  guestLoyalty(phone: string, opts: { pointId?: string } = {}): Promise<T.GuestLoyalty> {
    return this.get(`/v1/guests/${phone}/loyalty`, opts.pointId ? { pointId: opts.pointId } : undefined);
  }
  /** GET /v1/guests/{phone}/orders?limit&cursor (switch guest-api): one page, newest first. */
  guestOrders(phone: string, opts: { limit?: number; cursor?: string } = {}): Promise<T.GuestOrdersPage> {
    const q: Record<string, string> = {};
    if (opts.limit !== undefined) q.limit = String(opts.limit);
    if (opts.cursor) q.cursor = opts.cursor;
    return this.get(`/v1/guests/${phone}/orders`, q);
  }
  /** GET /v1/guests/{phone}/addresses (switch guest-api). */
  async guestAddresses(phone: string): Promise<T.GuestAddress[]> {
    return (await this.get<{ addresses: T.GuestAddress[] }>(`/v1/guests/${phone}/addresses`)).addresses;
  }
  /** GET /v1/status (switch guest-api): menu/stop-list revisions and POS heartbeat per point. */
  syncStatus(): Promise<T.SyncStatus> {
    return this.get('/v1/status');
  }
}
