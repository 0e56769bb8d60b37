import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HMAC request signing shared by the server (verification) and the partner SDK / POS simulator (signing).
 * Spec: delivery-partner-api.md, Authentication.
 */

/** Lowercase hex SHA-256 of the given bytes (a string is taken as UTF-8). */
export function sha256Hex(body: Uint8Array | string): string {
  return createHash('sha256').update(body).digest('hex');
}

/** SHA-256 of the empty byte sequence: the body hash of every GET. */
export const EMPTY_BODY_SHA256 = sha256Hex(new Uint8Array(0));

/** Inputs of the five-part canonical string. `timestamp` is Unix seconds as sent in `X-Timestamp`. */
export interface CanonicalRequest {
  timestamp: string;
  requestId: string;
  method: string;
  /** Request path without the query string, as sent on the wire (already URL-escaped). */
  path: string;
  body: Uint8Array | string;
}

/**
 * Escapes a path the way standard URL path escaping does; plain ASCII paths come back unchanged.
 * Each segment is escaped separately so the slashes stay.
 */
export function escapePath(path: string): string {
  return path
    .split('/')
    .map((seg) => encodeURIComponent(decodeURIComponentSafe(seg)).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Canonical string: timestamp, request id (case kept), METHOD, path, sha256hex(body), joined by LF,
 * no trailing LF. Spec: Authentication, canonical string.
 */
export function canonicalRequestString(r: CanonicalRequest): string {
  return [r.timestamp, r.requestId, r.method.toUpperCase(), r.path, sha256Hex(r.body)].join('\n');
}

/** Lowercase hex HMAC-SHA256 of `message` under `secret` (UTF-8). */
export function hmacHex(secret: string, message: string): string {
  return createHmac('sha256', secret).update(message, 'utf8').digest('hex');
}

/** `X-Signature` value for a request. */
export function signRequest(secret: string, r: CanonicalRequest): string {
  return hmacHex(secret, canonicalRequestString(r));
}

/** Constant-time comparison of two hex signatures; false for different lengths without leaking where. */
export function safeEqualHex(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  if (a.length !== b.length) {
    // Compare against itself so the time taken does not depend on where the strings differ.
    timingSafeEqual(a, a);
    return false;
  }
  return timingSafeEqual(a, b);
}

/** Headers a signed request carries. */
export interface SignedHeaders {
  'X-API-Key': string;
  'X-Timestamp': string;
  'X-Request-ID': string;
  'X-Signature': string;
}

/**
 * Builds the four authentication headers for a request.
 * @param now send time; seconds are taken from it (Unix seconds, UTC).
 */
export function buildSignedHeaders(args: {
  apiKey: string;
  secret: string;
  method: string;
  path: string;
  body: Uint8Array | string;
  requestId: string;
  now: Date;
}): SignedHeaders {
  const timestamp = String(Math.floor(args.now.getTime() / 1000));
  const signature = signRequest(args.secret, {
    timestamp,
    requestId: args.requestId,
    method: args.method,
    path: args.path,
    body: args.body,
  });
  return { 'X-API-Key': args.apiKey, 'X-Timestamp': timestamp, 'X-Request-ID': args.requestId, 'X-Signature': signature };
}

/**
 * Webhook canonical string: timestamp LF eventId LF sha256hex(rawBody), no trailing LF.
 * Spec: Events, headers.
 */
export function canonicalWebhookString(timestamp: string, eventId: string, rawBody: Uint8Array | string): string {
  return [timestamp, eventId, sha256Hex(rawBody)].join('\n');
}

/** `X-Service-Signature` value for a webhook delivery. */
export function signWebhook(secret: string, timestamp: string, eventId: string, rawBody: Uint8Array | string): string {
  return hmacHex(secret, canonicalWebhookString(timestamp, eventId, rawBody));
}
