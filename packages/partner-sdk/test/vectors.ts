import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A known-answer webhook signature vector (test/webhook-vectors.json). `timestamp` is Unix seconds. */
export interface WebhookVector {
  name: string;
  secret: string;
  timestamp: string;
  eventId: string;
  body: string;
  canonical: string;
  signature: string;
}

/** Path of the shared vector file; the delivery-api dispatcher test reads it too. */
export const VECTORS_PATH = join(import.meta.dirname, 'webhook-vectors.json');

export function loadVectors(): WebhookVector[] {
  return JSON.parse(readFileSync(VECTORS_PATH, 'utf8')) as WebhookVector[];
}

/** Independent computation with node:crypto only (no @app/shared), so a bug in the shared signer cannot hide. */
export function computeWithNodeCrypto(secret: string, timestamp: string, eventId: string, body: string): { canonical: string; signature: string } {
  const canonical = `${timestamp}\n${eventId}\n${createHash('sha256').update(Buffer.from(body, 'utf8')).digest('hex')}`;
  return { canonical, signature: createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(canonical, 'utf8')).digest('hex') };
}

/** Headers the service would send for a vector. */
export function vectorHeaders(v: WebhookVector): Record<string, string> {
  return {
    'x-service-event-id': v.eventId,
    'x-service-timestamp': v.timestamp,
    'x-service-signature': v.signature,
    'content-type': 'application/json',
  };
}

/** The vector's send time as a Date. */
export const vectorTime = (v: WebhookVector, plusSeconds = 0) => new Date((Number(v.timestamp) + plusSeconds) * 1000);
