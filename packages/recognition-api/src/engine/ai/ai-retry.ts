/** Attempts of one AI request in all (the first plus two retries). */
export const AI_MAX_ATTEMPTS = 3;
/** Longest wait honoured from a `Retry-After` header; a longer one fails the attempt instead of stalling. */
export const AI_MAX_RETRY_AFTER_MS = 30_000;

/** Abortable wait (port: tests record the delays instead of sleeping). Rejects when `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(new Error('aborted'));
      },
      { once: true },
    );
  });

/** Parses `Retry-After`: delta seconds or an HTTP date (relative to `now`); null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * The retry rule of the AI adapter (docs/decisions.md "AI retries"), in one place: 429 and 5xx (500, 502, 503, 504) and
 * network errors (status null) are retried while attempts remain; the wait is the server's `Retry-After` when it
 * gives one (at most 30 s; beyond that the request fails now rather than sleeping past the budget), otherwise
 * exponential back-off 1 s, 2 s with ±20 % jitter. Returns the wait in ms, or null for "do not retry".
 */
export function retryDelay(attempt: number, status: number | null, retryAfterMs: number | null, random: () => number = Math.random): number | null {
  if (attempt >= AI_MAX_ATTEMPTS) return null;
  const retryable = status === null || status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
  if (!retryable) return null;
  if (retryAfterMs !== null) return retryAfterMs <= AI_MAX_RETRY_AFTER_MS ? retryAfterMs : null;
  return Math.round(1000 * 2 ** (attempt - 1) * (0.8 + 0.4 * random()));
}
