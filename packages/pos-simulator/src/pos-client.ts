import { buildSignedHeaders, randomIds, systemClock, type Clock, type IdSource } from '@app/shared';
import type { ProductMapping, StopListEntry, Street } from './chain.js';
import type { HeartbeatReply, MenuPush, PushReply } from '@app/delivery-contract';
import type { CancellationRequest, CancelResultReport, ClaimedOrder, DeliveryStatusReport, PosOrderView, StateReport } from './pos-orders.types.js';

/** `fetch`-compatible function; injectable so tests can capture the exact bytes sent. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: Uint8Array; signal?: AbortSignal },
) => Promise<Response>;

export type { HeartbeatReply, MenuPush, PushReply } from '@app/delivery-contract';

/**
 * A POS call that did not succeed. `status` is the HTTP status (0 = no answer: network error or timeout);
 * `code` is the server's `error` (`invalid_request`, `unauthorized`, `forbidden`, ...), or `http_<status>`,
 * `network_error`, `invalid_response` when the server gave none.
 */
export class PosRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly path: string,
  ) {
    super(`POST ${path}: ${status} ${code}: ${message}`);
    this.name = 'PosRequestError';
  }
}

export interface PosClientOptions {
  /** Server base URL, e.g. `http://127.0.0.1:3000` (a path prefix is kept and signed). */
  baseUrl: string;
  /** POS credential; bound by the server to one terminal group (organizationId + terminalGroupId). */
  apiKey: string;
  apiSecret: string;
  fetch?: FetchLike;
  /** Source of `X-Timestamp` (UTC, seconds are taken). */
  clock?: Clock;
  /** Source of `X-Request-ID` (a new UUID per HTTP request, retries included). */
  ids?: IdSource;
  /** Per-request timeout in milliseconds (default 10 000). */
  timeoutMs?: number;
}

/**
 * Client of the POS protocol (`/pos/v1`, docs/pos-protocol.md). Every call is a signed POST
 * (spec: Authentication); the body is serialised once and those same bytes are signed and sent.
 */
export class PosClient {
  private readonly base: string;
  private readonly fetchFn: FetchLike;
  private readonly clock: Clock;
  private readonly ids: IdSource;

  constructor(private readonly opts: PosClientOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.fetchFn = opts.fetch ?? ((url, init) => fetch(url, init));
    this.clock = opts.clock ?? systemClock;
    this.ids = opts.ids ?? randomIds;
  }

  /** Liveness ping; the terminal counts as alive for `aliveWindowSeconds` after it. */
  heartbeat(): Promise<HeartbeatReply> {
    return this.post('/pos/v1/heartbeat', {}, isHeartbeatReply);
  }

  /** Replaces the terminal group's menu. */
  pushMenu(menu: MenuPush): Promise<PushReply> {
    return this.post('/pos/v1/menu', { categories: menu.categories, items: menu.items }, isPushReply);
  }

  /** Replaces the stop-list with the full current one (not a delta); balance <= 0 means out of stock. */
  pushStopList(items: StopListEntry[]): Promise<PushReply> {
    return this.post('/pos/v1/stop-list', { items }, isPushReply);
  }

  /** Replaces the POS street dictionary (names with their city; used for street checks). */
  pushStreets(streets: Street[]): Promise<PushReply> {
    return this.post('/pos/v1/streets', { streets }, isPushReply);
  }

  /** Replaces the legacy partner product ids mapped to POS products. */
  pushProductMappings(products: ProductMapping[]): Promise<PushReply> {
    return this.post('/pos/v1/product-mappings', { products }, isPushReply);
  }

  /** Claims up to `limit` (1..50) queued orders of this terminal group with a 120 s lease. */
  async claimOrders(limit: number): Promise<ClaimedOrder[]> {
    return (await this.post('/pos/v1/orders/claim', { limit }, isClaimReply)).orders;
  }

  /**
   * Reports a creation state of a claimed order. 409 `invalid_or_expired_claim` (lease lost),
   * `invalid_state_transition`, `stable_id_mismatch` come back as PosRequestError. Repeating the current state is safe.
   */
  reportState(orderId: string, report: StateReport): Promise<PosOrderView> {
    return this.post(`/pos/v1/orders/${encodeURIComponent(orderId)}/state`, report, isOrderView);
  }

  /** Reports the order's delivery status (created orders only, else 409 `invalid_state_transition`). */
  reportDeliveryStatus(orderId: string, report: DeliveryStatusReport): Promise<PosOrderView> {
    return this.post(`/pos/v1/orders/${encodeURIComponent(orderId)}/delivery-status`, report, isOrderView);
  }

  /** Requested cancellations of this terminal group; each is handed out again after 120 s until a result is reported. */
  async claimCancellations(): Promise<CancellationRequest[]> {
    return (await this.post('/pos/v1/cancellations/claim', {}, isCancellationsReply)).cancellations;
  }

  /** Reports the POS outcome of a cancellation: `cancelled`, or `rejected` with a detail (`not_new`, `not_found`, ...). */
  reportCancelResult(orderId: string, report: CancelResultReport): Promise<PosOrderView> {
    return this.post(`/pos/v1/orders/${encodeURIComponent(orderId)}/cancel-result`, report, isOrderView);
  }

  private async post<T>(path: string, body: unknown, check: (v: unknown) => v is T): Promise<T> {
    const url = new URL(this.base + path);
    const bytes = new TextEncoder().encode(JSON.stringify(body));
    const signed = buildSignedHeaders({
      apiKey: this.opts.apiKey,
      secret: this.opts.apiSecret,
      method: 'POST',
      path: url.pathname,
      body: bytes,
      requestId: this.ids.uuid(),
      now: this.clock.now(),
    });
    let res: Response;
    try {
      res = await this.fetchFn(url.toString(), {
        method: 'POST',
        headers: { ...signed, 'Content-Type': 'application/json' },
        body: bytes,
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new PosRequestError(0, 'network_error', (err as Error).message, path);
    }
    const text = await res.text();
    const json = parseJson(text);
    if (!res.ok) {
      const e = json as { error?: unknown; message?: unknown } | undefined;
      const code = typeof e?.error === 'string' ? e.error : `http_${res.status}`;
      const message = typeof e?.message === 'string' ? e.message : text.slice(0, 200);
      throw new PosRequestError(res.status, code, message, path);
    }
    if (!check(json)) throw new PosRequestError(res.status, 'invalid_response', `unexpected answer: ${text.slice(0, 200)}`, path);
    return json;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isPushReply(v: unknown): v is PushReply {
  const r = v as PushReply | undefined;
  return typeof r?.revision === 'string' && typeof r.syncedAt === 'string' && typeof r.changed === 'boolean';
}

function isHeartbeatReply(v: unknown): v is HeartbeatReply {
  const r = v as HeartbeatReply | undefined;
  return typeof r?.serverTime === 'string' && typeof r.aliveWindowSeconds === 'number';
}

function isClaimReply(v: unknown): v is { orders: ClaimedOrder[] } {
  const r = v as { orders?: unknown } | undefined;
  return (
    Array.isArray(r?.orders) &&
    r.orders.every(
      (o: ClaimedOrder) => typeof o?.orderId === 'string' && typeof o.claimId === 'string' && typeof o.order === 'object' && o.order !== null,
    )
  );
}

function isCancellationsReply(v: unknown): v is { cancellations: CancellationRequest[] } {
  const r = v as { cancellations?: unknown } | undefined;
  return Array.isArray(r?.cancellations) && r.cancellations.every((c: CancellationRequest) => typeof c?.orderId === 'string');
}

function isOrderView(v: unknown): v is PosOrderView {
  const r = v as PosOrderView | undefined;
  return typeof r?.id === 'string' && typeof r.state === 'string';
}
