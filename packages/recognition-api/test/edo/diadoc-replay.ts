import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '@app/shared';
import { DiadocOperator } from '../../src/edo/diadoc/diadoc.http.js';
import { makeHarness } from '../harness.js';

/** One request the replay server received. */
export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Parsed JSON body, when there was one. */
  body?: unknown;
  headers: IncomingMessage['headers'];
}

/** A canned answer: status, `json` (JSON text, sent byte for byte so 64-bit ticks survive) or a plain-text `body`, headers. */
export interface Answer {
  status?: number;
  json?: string;
  body?: string;
  headers?: Record<string, string>;
}

/**
 * A tiny HTTP server that answers Diadoc paths with canned bodies (Diadoc's published examples) and records every
 * request, so the adapter and the gateway routes are checked against Diadoc's documentation instead of the
 * simulator (which was written from the same notes as the adapter). `answers` maps `METHOD /path` to an answer;
 * `next` overrides the next answer of one key (errors).
 */
export async function startReplayServer(answers: Record<string, Answer>) {
  const recorded: Recorded[] = [];
  const once = new Map<string, Answer>();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://replay');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    recorded.push({
      method: req.method!,
      path: url.pathname,
      query: url.searchParams,
      body: text ? JSON.parse(text) : undefined,
      headers: req.headers,
    });
    const key = `${req.method} ${url.pathname}`;
    const a = once.get(key) ?? answers[key] ?? { status: 404, body: `no replay for ${key}`, headers: { 'x-diadoc-errorcode': 'Http.NotFound' } };
    once.delete(key);
    res.writeHead(a.status ?? 200, {
      'content-type': a.json !== undefined ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
      ...a.headers,
    });
    res.end(a.json ?? a.body ?? '');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    recorded,
    /** The last request to `METHOD /path`. */
    last: (key: string) => recorded.filter((r) => `${r.method} ${r.path}` === key).at(-1),
    next: (key: string, a: Answer) => void once.set(key, a),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * Key paths of `example` that `actual` lacks or holds with another JSON type (arrays: their first elements).
 * Used to check the simulator answers with every field of Diadoc's published examples.
 */
export function missingPaths(example: unknown, actual: unknown, path = ''): string[] {
  const kind = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'bigint' ? 'number' : typeof v);
  if (example === null) return [];
  if (kind(example) !== kind(actual)) return [`${path || '.'} (${kind(example)} expected, ${kind(actual)} found)`];
  if (Array.isArray(example))
    return example.length && (actual as unknown[]).length ? missingPaths(example[0], (actual as unknown[])[0], `${path}[0]`) : [];
  if (kind(example) !== 'object') return [];
  return Object.entries(example as Record<string, unknown>).flatMap(([k, v]) =>
    k in (actual as object) ? missingPaths(v, (actual as Record<string, unknown>)[k], `${path}.${k}`) : [`${path}.${k}`],
  );
}

/**
 * A replay server holding `answers`, the Diadoc adapter pointed at it (`op`, box `boxId`, no retries) and the
 * recognition app whose stored EDO connection points at it too (`call` sends with an `edo` key), so one example is
 * replayed through the adapter and through the gateway's HTTP routes. Tokens are fixed: no identity provider.
 */
export async function startReplayGateway(answers: Record<string, Answer>, boxId: string) {
  const clock = new ManualClock('2026-11-23T09:00:00Z');
  const tokens = { accessToken: async () => 'replay-token', refresh: async () => 'replay-token' };
  const operator = (box: string, baseUrl: string) => new DiadocOperator(box, { baseUrl, tokens, clock, timeoutMs: 5000, maxRetries: 0 });
  const replay = await startReplayServer(answers);
  const op = operator(boxId, replay.url);
  const h = await makeHarness({ clock, edo: { masterKey: randomBytes(32), operatorFactory: (conn) => operator(conn.boxId, conn.apiBaseUrl) } });
  await h.services.edo.connection.set({ clientId: 'c', clientSecret: 's', refreshToken: 'r', boxId, issuerUrl: replay.url, apiBaseUrl: replay.url });
  const key = (await h.services.keys.create('edo', undefined, ['edo'])).key;
  return {
    replay,
    op,
    h,
    clock,
    /** One request to the recognition app with the `edo` key. */
    call: (method: string, url: string, body?: unknown) =>
      h.app.inject({ method: method as 'GET', url, payload: body as never, headers: { 'x-api-key': key } }),
    async close() {
      await op.close();
      await h.close();
      await replay.close();
    },
  };
}
