import type { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import type { Clock } from '@app/shared';
import type { OperatorJson, TokenStatus } from '../edo.port.js';
import { type CallKind, mapOperatorError, operatorText, parseRetryAfter, unreachable } from './diadoc-errors.js';
import { parseDiadocJson } from './diadoc-json.js';

/** Source of bearer tokens (OidcTokenSource; a fake in unit tests). */
export interface TokenSource {
  accessToken(): Promise<string>;
  /** Drops the cached token and gets a new one (after a 401). */
  refresh(): Promise<string>;
  /** The cached access token's times, when the source keeps one. */
  status?(): TokenStatus | null;
}

export interface DiadocClientOptions {
  /** e.g. `https://diadoc-api.kontur.ru` (no trailing slash). */
  baseUrl: string;
  tokens: TokenSource;
  clock: Clock;
  /** Per call: headers and body (streams: per idle gap between chunks), ms. */
  timeoutMs: number;
  /** Retries of idempotent calls after 429/5xx/connection errors (default 2). */
  maxRetries?: number;
  /** Longest wait we accept before a retry; a longer Retry-After is handed to the caller (default 2000 ms). */
  maxRetryWaitMs?: number;
  /** Injected so tests never sleep for real time. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** One operator call. `idempotent` permits retries (GETs, searches, and PostMessage with its operationId). */
export interface CallSpec {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON body: an object, or text already serialized. */
  body?: unknown;
  idempotent: boolean;
  /** Replaces the client's per-call timeout (large uploads), ms. */
  timeoutMs?: number;
  /** What the call is about, so a 403 is explained for it (default: the box). */
  kind?: CallKind;
}

/** Slowest upload rate we plan for when sizing a timeout: 256 KiB/s (a 70 MB message gets about 4.5 minutes more). */
export const UPLOAD_BYTES_PER_SECOND = 256 * 1024;

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * HTTP transport to the Diadoc API (undici): JSON with `Accept: application/json`, bearer auth with one refresh and
 * one retry on 401, timeouts on every call, retries with exponential back-off and jitter only for idempotent
 * calls and only on 429 / 5xx / connection errors (never after a timeout: the operator may still be working), and
 * every error answer mapped by `mapOperatorError`.
 */
export class DiadocClient {
  private readonly agent: Agent;
  constructor(private readonly opts: DiadocClientOptions) {
    this.agent = new Agent({ connect: { timeout: opts.timeoutMs }, headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs });
  }

  /** A JSON answer (an empty body gives `{}`), parsed without losing 64-bit ticks. */
  async json(spec: CallSpec): Promise<OperatorJson> {
    const res = await this.send(spec, false);
    const text = await res.body.text();
    try {
      return text.trim() === '' ? {} : (parseDiadocJson(text) as OperatorJson);
    } catch {
      throw mapOperatorError(502, undefined, `unreadable JSON from ${spec.path}: ${operatorText(text, res.headers['content-type'] as string)}`);
    }
  }

  /** The raw answer (status and headers checked); the caller consumes `body`. */
  async raw(
    spec: CallSpec,
    stream = false,
  ): Promise<{ status: number; headers: Dispatcher.ResponseData['headers']; body: Readable & { text(): Promise<string>; dump(): Promise<void> } }> {
    const res = await this.send(spec, stream);
    return { status: res.statusCode, headers: res.headers, body: res.body as never };
  }

  /** The timeout of a call whose body has `bytes`: the per-call timeout plus the upload time at the slowest rate we plan for. */
  timeoutFor(bytes: number): number {
    return this.opts.timeoutMs + Math.ceil((bytes / UPLOAD_BYTES_PER_SECOND) * 1000);
  }

  /** The token source's status (admin panel: "last refresh"). */
  tokenStatus(): TokenStatus | null {
    return this.opts.tokens.status?.() ?? null;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private url(spec: CallSpec): string {
    const u = new URL(spec.path, `${this.opts.baseUrl}/`);
    for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  /** Back-off before retry `attempt` (0-based): 250 ms · 2^attempt plus up to 100 ms of jitter. */
  private backoff(attempt: number): number {
    return 250 * 2 ** attempt + Math.floor((this.opts.random ?? Math.random)() * 100);
  }

  private async send(spec: CallSpec, stream: boolean): Promise<Dispatcher.ResponseData> {
    const sleep = this.opts.sleep ?? realSleep;
    const maxRetries = this.opts.maxRetries ?? 2;
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      const token = await this.opts.tokens.accessToken();
      let res: Dispatcher.ResponseData;
      try {
        res = await request(this.url(spec), {
          method: spec.method,
          dispatcher: this.agent,
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json',
            'x-solution-info': 'document-recognition-api edo-gateway',
            ...(spec.body !== undefined ? { 'content-type': 'application/json; charset=utf-8' } : {}),
          },
          body: spec.body === undefined ? undefined : typeof spec.body === 'string' ? spec.body : JSON.stringify(spec.body),
          headersTimeout: spec.timeoutMs ?? this.opts.timeoutMs,
          bodyTimeout: spec.timeoutMs ?? this.opts.timeoutMs,
          signal: stream ? undefined : AbortSignal.timeout(spec.timeoutMs ?? this.opts.timeoutMs),
        });
      } catch (err) {
        const timedOut = /Timeout|Abort/.test(`${(err as Error).name} ${(err as { code?: string }).code}`);
        if (spec.idempotent && !timedOut && attempt < maxRetries) {
          await sleep(this.backoff(attempt));
          continue;
        }
        throw unreachable(`the Diadoc API ${this.opts.baseUrl}`, err);
      }
      const status = res.statusCode;
      if (status === 401 && !refreshed) {
        await res.body.dump();
        refreshed = true;
        await this.opts.tokens.refresh();
        attempt--;
        continue;
      }
      if (status < 400) return res;
      const text = await res.body.text().catch(() => '');
      const retryAfter = parseRetryAfter(res.headers['retry-after'], this.opts.clock.now());
      if (spec.idempotent && attempt < maxRetries && (status === 429 || status >= 500)) {
        const wait = status === 429 && retryAfter !== undefined ? retryAfter * 1000 : this.backoff(attempt);
        if (wait <= (this.opts.maxRetryWaitMs ?? 2000)) {
          await sleep(wait);
          continue;
        }
      }
      const code = res.headers['x-diadoc-errorcode'];
      throw mapOperatorError(
        status,
        Array.isArray(code) ? code[0] : code,
        operatorText(text, res.headers['content-type'] as string),
        retryAfter,
        spec.kind,
      );
    }
  }
}
