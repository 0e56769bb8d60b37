/** Default per-request timeout of a webhook POST in ms. Spec: Events, Delivery and retries, rule 2 (5 seconds). */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5000;

/** One webhook POST. `body` is sent as its exact UTF-8 bytes. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Whole-request budget in ms (connect, send, response head and body). */
  timeoutMs: number;
}

/**
 * Outgoing HTTP for webhooks (port). Resolves with the HTTP status of the response, whatever it is (a 3xx is
 * returned, never followed); rejects on timeout or network error with an Error whose message is recorded.
 */
export interface WebhookSender {
  send(req: WebhookRequest): Promise<{ status: number }>;
}
