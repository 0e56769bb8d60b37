import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isUuid, safeEqualHex, signRequest } from '@app/shared';

/** A request the server accepted, with the exact bytes received. */
export interface SeenRequest {
  method: string;
  path: string;
  query: string;
  headers: IncomingHttpHeaders;
  body: string;
}
/** Answer of a route: status, optional JSON body (or text), optional headers. */
export interface Answer {
  status: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

/**
 * A local HTTP server that authenticates requests exactly as the spec says (Authentication): key known,
 * timestamp within 60 s, X-Request-ID a UUID used once, HMAC over the five-part canonical string of the raw
 * path and raw body bytes, compared in constant time. Unauthenticated requests get 401 `unauthorized`.
 */
export async function startSignedServer(o: { apiKey: string; apiSecret: string; now?: () => Date; route: (r: SeenRequest) => Answer }) {
  const seen: SeenRequest[] = [];
  const usedIds = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const [path = '', query = ''] = (req.url ?? '').split('?');
      const h = (n: string) => (typeof req.headers[n] === 'string' ? (req.headers[n] as string) : '');
      const ts = h('x-timestamp');
      const rid = h('x-request-id');
      const nowS = Math.floor((o.now?.() ?? new Date()).getTime() / 1000);
      const expected = signRequest(o.apiSecret, { timestamp: ts, requestId: rid, method: req.method ?? '', path, body: raw });
      const ok =
        h('x-api-key') === o.apiKey &&
        /^\d+$/.test(ts) &&
        Math.abs(Number(ts) - nowS) <= 60 &&
        isUuid(rid) &&
        !usedIds.has(rid) &&
        safeEqualHex(expected, h('x-signature'));
      if (!ok) return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      const r: SeenRequest = { method: req.method ?? '', path, query, headers: req.headers, body: raw.toString('utf8') };
      seen.push(r);
      const a = o.route(r);
      // like the real server: an id is not consumed when the single-use store could not answer (spec: Authentication)
      if (!(a.status === 503 && (a.json as { error?: string } | undefined)?.error === 'authentication_unavailable')) usedIds.add(rid);
      const body = a.json !== undefined ? JSON.stringify(a.json) : (a.text ?? '');
      res
        .writeHead(a.status, { ...(a.json !== undefined ? { 'content-type': 'application/json' } : {}), ...a.headers })
        .end(a.status === 304 ? undefined : body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
