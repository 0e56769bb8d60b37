import { createHash } from 'node:crypto';
import { ApiError, invalid } from '../errors.js';
import type { RawUpload } from './multipart-upload.js';

/** How long an `Idempotency-Key` binds its request to its document (docs/decisions.md "Idempotency-Key"). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** Visible ASCII, 1–255 characters (a UUID, a ULID, an order number). */
const KEY_RE = /^[\x21-\x7e]{1,255}$/;

/**
 * The `Idempotency-Key` header of POST /recognize, or undefined when absent.
 * @throws ApiError VALIDATION_ERROR (`Idempotency-Key: …`) for an empty, long or non-ASCII key, or a repeated header.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header)) throw invalid('Idempotency-Key', 'send the header once');
  if (!KEY_RE.test(header)) throw invalid('Idempotency-Key', 'must be 1 to 255 visible ASCII characters (e.g. a UUID)');
  return header;
}

/**
 * The fingerprint of a recognize request: SHA-256 over its form fields (sorted by name) and the SHA-256 of each
 * file in order. File names are left out (a client may name the same scan differently on a retry); the bytes,
 * their order and every parameter count.
 */
export function requestHash(upload: RawUpload): string {
  const h = createHash('sha256');
  for (const name of Object.keys(upload.fields).sort()) h.update(`f:${name}=${JSON.stringify(upload.fields[name])}\n`);
  for (const f of upload.files) h.update(`i:${createHash('sha256').update(f.bytes).digest('hex')}\n`);
  return h.digest('hex');
}

/** 422 IDEMPOTENCY_KEY_REUSED: the key came with a different request within 24 h. */
export const keyReused = (): ApiError =>
  new ApiError(
    'IDEMPOTENCY_KEY_REUSED',
    'Idempotency-Key was already used with different files or parameters in the last 24 hours; use a new key for a new request',
  );

/** 409 IDEMPOTENCY_KEY_IN_USE: the first request with the key (priority=high) has not finished yet. */
export const keyInUse = (documentId: string): ApiError =>
  new ApiError(
    'IDEMPOTENCY_KEY_IN_USE',
    `the first request with this Idempotency-Key is still being processed; poll /api/v1/documents/${documentId} or retry later`,
  );
