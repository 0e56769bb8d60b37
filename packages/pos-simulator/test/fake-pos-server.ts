import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canonicalRequestString, isUuid, safeEqualHex, sha256Hex, signRequest } from '@app/shared';
import type { CancellationRequest, ClaimedOrder, PosOrderView } from '../src/index.js';

/** One request the test server accepted or refused. */
export interface Recorded {
  apiKey: string;
  path: string;
  requestId: string;
  timestamp: string;
  bodySha256: string;
  body: unknown;
  status: number;
}

/** Answer the test decides for a request (status and JSON body); undefined = normal answer. */
export type Script = (r: { apiKey: string; path: string; body: unknown }) => { status: number; body: unknown } | undefined;

/**
 * A real HTTP server (node:http, port 0) that checks every request the way the delivery API does: the four
 * headers, a fresh UUID request id, and the HMAC over the canonical string of the bytes actually received.
 * Bad signatures get 401 and are counted in `rejected`. Accepted pushes answer like the server.
 */
export class FakePosServer {
  readonly requests: Recorded[] = [];
  readonly rejected: { path: string; reason: string }[] = [];
  script: Script = () => undefined;
  /** Orders the next claim hands out (per API key), and requested cancellations the next cancellation claim hands out. */
  readonly queue = new Map<string, ClaimedOrder[]>();
  readonly cancelQueue = new Map<string, CancellationRequest[]>();
  /** Server-side view of every order reported on, by id (updated by accepted reports). */
  readonly views = new Map<string, PosOrderView>();
  private server: Server | null = null;
  private seenIds = new Set<string>();
  private waiters: { pred: () => boolean; resolve: () => void }[] = [];

  constructor(private readonly secrets: Record<string, string>) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      void this.handle(req).then(({ status, body }) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** Accepted requests of one key (and path). */
  of(apiKey: string, path?: string): Recorded[] {
    return this.requests.filter((r) => r.apiKey === apiKey && r.status === 200 && (!path || r.path === path));
  }

  /** Resolves once `pred` holds after some request (checked now and after each request). */
  until(pred: () => boolean): Promise<void> {
    if (pred()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ pred, resolve }));
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const path = (req.url ?? '').split('?')[0];
    const h = (n: string) => String(req.headers[n] ?? '');
    const [apiKey, timestamp, requestId, signature] = [h('x-api-key'), h('x-timestamp'), h('x-request-id'), h('x-signature')];
    const secret = this.secrets[apiKey];
    const expected = secret && signRequest(secret, { timestamp, requestId, method: req.method ?? '', path, body: raw });
    const reason = !secret
      ? 'unknown key'
      : !isUuid(requestId)
        ? 'request id not a UUID'
        : this.seenIds.has(requestId)
          ? 'request id reused'
          : !safeEqualHex(expected as string, signature)
            ? `signature mismatch over ${JSON.stringify(canonicalRequestString({ timestamp, requestId, method: 'POST', path, body: raw }))}`
            : null;
    if (reason) {
      this.rejected.push({ path, reason });
      return { status: 401, body: { error: 'unauthorized', message: reason } };
    }
    this.seenIds.add(requestId);
    const body: unknown = JSON.parse(raw.toString('utf8'));
    const answer = this.script({ apiKey, path, body }) ?? this.orderAnswer(apiKey, path, body) ?? normalAnswer(path, raw);
    this.requests.push({ apiKey, path, requestId, timestamp, bodySha256: sha256Hex(raw), body, status: answer.status });
    this.waiters = this.waiters.filter((w) => (w.pred() ? (w.resolve(), false) : true));
    return answer;
  }

  /** Order endpoints: hands out the queues, and applies reports to `views` (no transition checks: tests assert the calls). */
  private orderAnswer(apiKey: string, path: string, body: unknown): { status: number; body: unknown } | undefined {
    if (path === '/pos/v1/orders/claim') {
      const q = this.queue.get(apiKey) ?? [];
      return { status: 200, body: { orders: q.splice(0, (body as { limit?: number }).limit ?? 10) } };
    }
    if (path === '/pos/v1/cancellations/claim') return { status: 200, body: { cancellations: (this.cancelQueue.get(apiKey) ?? []).splice(0) } };
    const m = /^\/pos\/v1\/orders\/([^/]+)\/(state|delivery-status|cancel-result)$/.exec(path);
    if (!m) return undefined;
    const b = body as Record<string, string>;
    const v = this.views.get(m[1]) ?? { id: m[1], state: 'claimed', posOrderId: null, deliveryStatus: null, cancelState: 'none', cancelDetail: null };
    if (m[2] === 'state') Object.assign(v, { state: b.state, posOrderId: b.posOrderId ?? v.posOrderId });
    if (m[2] === 'delivery-status') v.deliveryStatus = b.status as PosOrderView['deliveryStatus'];
    if (m[2] === 'cancel-result') {
      Object.assign(v, b.result === 'cancelled' ? { state: 'cancelled', cancelState: 'done' } : { cancelState: 'rejected', cancelDetail: b.detail });
    }
    this.views.set(m[1], v);
    return { status: 200, body: v };
  }
}

function normalAnswer(path: string, raw: Buffer): { status: number; body: unknown } {
  if (path === '/pos/v1/heartbeat') return { status: 200, body: { serverTime: new Date().toISOString(), aliveWindowSeconds: 90 } };
  return { status: 200, body: { revision: sha256Hex(raw).slice(0, 16), syncedAt: new Date().toISOString(), changed: true } };
}
