import { UUID_RE, safeEqualHex, signWebhook } from '@app/shared';
import { WebhookVerificationError, type WebhookVerificationReason } from './webhook-errors.js';
import { checkWebhookShape, endOfTopLevelValue } from './webhook-shape.js';

/** Default tolerance between X-Service-Timestamp and the receiver's clock, seconds, both directions. Spec: Events. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 60;

/** Headers as node:http gives them (lower-case keys), as a plain record in any case, or a fetch `Headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** Input of {@link verifyWebhook}. `rawBody` is the body exactly as received, before any JSON parsing. */
export interface VerifyWebhookInput {
  rawBody: Uint8Array | string;
  headers: WebhookHeaders;
  /** The webhook secret agreed with the operator (not the API secret). */
  secret: string;
  toleranceSeconds?: number;
  /** Receiver's current time (default: now). */
  now?: Date;
}

/** A verified order event. `type` is one of the order event types of spec Events. */
export interface VerifiedOrderWebhook {
  eventId: string;
  type: string;
  occurredAt: string;
  order: import('./types.js').WebhookOrder;
}

/** A verified catalog event (sources with the `catalog-events` switch): the point and its new revision or status. */
export interface VerifiedCatalogWebhook {
  eventId: string;
  type: 'menu.updated' | 'stoplist.updated' | 'point.status_changed';
  occurredAt: string;
  point: { pointId: string; revision?: string; status?: 'alive' | 'offline' | string };
}

/** A verified webhook: an order event, or a catalog event (`'point' in event`). */
export type VerifiedWebhook = VerifiedOrderWebhook | VerifiedCatalogWebhook;

function header(h: WebhookHeaders, name: string): string | undefined {
  if (typeof (h as Headers).get === 'function') return (h as Headers).get(name) ?? undefined;
  const rec = h as Record<string, string | string[] | undefined>;
  const key = Object.keys(rec).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : rec[key];
  return Array.isArray(v) ? v[0] : v;
}

const fail = (reason: WebhookVerificationReason, message: string): never => {
  throw new WebhookVerificationError(reason, message);
};

/**
 * Reference webhook verifier. Spec: Events (headers, canonical string, receiver checks). In order: headers
 * present; event id a UUID; timestamp within ±tolerance; HMAC-SHA256 over `timestamp LF eventId LF
 * sha256hex(rawBody)` compared in constant time; body valid UTF-8, strict JSON, no trailing data, exactly the
 * published fields; body eventId equal to the header. Returns the parsed body.
 * @throws WebhookVerificationError with a `reason` code (see WebhookVerificationReason).
 */
export function verifyWebhook(input: VerifyWebhookInput): VerifiedWebhook {
  const eventId = header(input.headers, 'x-service-event-id');
  const timestamp = header(input.headers, 'x-service-timestamp');
  const signature = header(input.headers, 'x-service-signature');
  for (const [name, v] of [
    ['X-Service-Event-Id', eventId],
    ['X-Service-Timestamp', timestamp],
    ['X-Service-Signature', signature],
  ] as const) {
    if (!v) fail('missing_header', `header ${name} is missing or empty`);
  }
  if (!UUID_RE.test(eventId!)) fail('invalid_event_id', `X-Service-Event-Id "${eventId}" is not a UUID`);
  if (!/^\d{1,12}$/.test(timestamp!)) fail('invalid_timestamp', `X-Service-Timestamp "${timestamp}" is not Unix seconds`);
  const tolerance = input.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const skew = Number(timestamp) - Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (skew < -tolerance)
    fail(
      'timestamp_too_old',
      `X-Service-Timestamp is ${-skew} s old (tolerance ${tolerance} s); replayed or delayed, or the receiver clock is ahead`,
    );
  if (skew > tolerance)
    fail('timestamp_in_future', `X-Service-Timestamp is ${skew} s in the future (tolerance ${tolerance} s); check the receiver clock`);
  const bytes = typeof input.rawBody === 'string' ? Buffer.from(input.rawBody, 'utf8') : input.rawBody;
  const expected = signWebhook(input.secret, timestamp!, eventId!, bytes);
  if (!safeEqualHex(expected, signature!)) {
    fail('invalid_signature', 'X-Service-Signature does not match; check the webhook secret and verify the raw body bytes before any JSON parsing');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return fail('invalid_encoding', 'webhook body is not valid UTF-8');
  }
  const end = endOfTopLevelValue(text);
  if (end > 0 && text.slice(end).trim() !== '') fail('trailing_data', `webhook body has data after the JSON value at character ${end}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    return fail('malformed_json', `webhook body is not JSON: ${(err as Error).message}`);
  }
  checkWebhookShape(body, fail);
  const parsed = body as VerifiedWebhook;
  if (parsed.eventId !== eventId) fail('event_id_mismatch', `body eventId ${parsed.eventId} differs from X-Service-Event-Id ${eventId}`);
  return parsed;
}
