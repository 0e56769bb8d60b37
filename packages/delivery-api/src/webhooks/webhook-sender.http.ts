import { request } from 'undici';
import type { WebhookRequest, WebhookSender } from './webhook-sender.port.js';

/** Largest response body we read (and discard) before closing; receivers should answer with an empty body. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * The real sender on undici `request`, which never follows redirects (a 3xx comes back as a status).
 * The timeout is one AbortSignal over the whole exchange, so a receiver that accepts the connection and never
 * answers, or stalls mid-body, is cut at `timeoutMs`.
 */
export function createHttpWebhookSender(): WebhookSender {
  return {
    async send(req: WebhookRequest) {
      const signal = AbortSignal.timeout(req.timeoutMs);
      try {
        const res = await request(req.url, { method: 'POST', headers: req.headers, body: req.body, signal });
        await res.body.dump({ limit: MAX_RESPONSE_BYTES, signal });
        return { status: res.statusCode };
      } catch (err) {
        if (signal.aborted) throw new Error(`timeout after ${req.timeoutMs} ms`);
        const e = err as Error & { code?: string };
        throw new Error(e.code ? `${e.code}: ${e.message}` : e.message);
      }
    },
  };
}
