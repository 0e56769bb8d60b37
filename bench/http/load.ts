/**
 * Parent side of the load generator: {@link runLoad} forks bench/http/load-child.ts (autocannon in its own
 * process, so the client never shares an event loop or a core's time slice accounting with the server under
 * test), hands it one case and returns its numbers. A child that fails or overruns its time is killed and the
 * case rejects with the reason.
 */
import { join } from 'node:path';
import { forkTs, stop } from './procs.js';

export interface Key {
  apiKey: string;
  apiSecret: string;
}

/** One autocannon case. Every request is signed with a fresh X-Request-ID when `key` is set. */
export interface LoadSpec {
  /** Base URL, e.g. http://127.0.0.1:3000 */
  url: string;
  method: 'GET' | 'POST';
  path: string;
  connections: number;
  /** Seconds to run; or `amount` requests. */
  duration?: number;
  amount?: number;
  key: Key | null;
  /** Extra headers on every request (If-None-Match). */
  headers?: Record<string, string>;
  /** The same body on every request. */
  body?: string;
  /** A body whose `placeholder` is replaced by `${prefix}-${n}`, n counting from 0: unique ids per request. */
  template?: { text: string; placeholder: string; prefix: string };
  /** Bodies used in order, one per request, cycling (with `amount` = their count, each is sent once). */
  bodies?: string[];
}

export interface LoadResult {
  requests: number;
  seconds: number;
  /** Completed responses over the run's wall time. */
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Status code → count. */
  statuses: Record<string, number>;
  /** Average cores the load generator itself used during the run (its process ends before the caller can read /proc). */
  clientCores: number;
}

const CHILD = join(import.meta.dirname, 'load-child.ts');

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const child = forkTs(CHILD);
  // A fixed count gets at least 10 requests/s before it is called hung.
  const limitMs = (spec.amount ? Math.max(120, spec.amount / 10) : (spec.duration ?? 10) + 60) * 1000;
  try {
    return await new Promise<LoadResult>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`load generator overran ${limitMs / 1000} s`)), limitMs);
      child.once('message', (m: { ok: true; result: LoadResult } | { ok: false; error: string }) => {
        clearTimeout(timer);
        if (m.ok) resolve(m.result);
        else reject(new Error(`load generator: ${m.error}`));
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`load generator exited (${signal ?? code}) without a result`));
      });
      child.send(spec);
    });
  } finally {
    await stop(child);
  }
}

/** `200×5, 304×9` from a status breakdown. */
export const statusText = (s: Record<string, number>): string =>
  Object.entries(s)
    .map(([c, n]) => `${c}×${n}`)
    .join(', ');
