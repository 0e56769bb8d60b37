import { isUuid } from '@app/shared';
import { invalid } from '../errors.js';
import type { HistoryPosition } from './guest-history.repo.js';

/**
 * The opaque `cursor` of GET /v1/guests/{phone}/orders: base64url of `v1.<createdAt ms>.<order id>`, the last order
 * of the page before. Partners must not build or read it (it may change); only the position is in it, never the
 * phone, so it is no personal data.
 */
export function encodeCursor(p: HistoryPosition): string {
  return Buffer.from(`v1.${p.createdAt.getTime()}.${p.id}`).toString('base64url');
}

/** @throws ApiError invalid_request (400) for a cursor this service did not issue. */
export function decodeCursor(cursor: string): HistoryPosition {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  const ms = Number(parts[1]);
  if (parts.length !== 3 || parts[0] !== 'v1' || !/^\d{1,15}$/.test(parts[1] ?? '') || !Number.isSafeInteger(ms) || !isUuid(parts[2]))
    throw invalid('cursor is not one this service issued');
  return { createdAt: new Date(ms), id: parts[2] };
}
