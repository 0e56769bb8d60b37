import { createHash } from 'node:crypto';

/** The six server-owned fields: accepted, overwritten, and not part of idempotency. Spec: General rule 2. */
export const SERVER_OWNED_TOP = ['appliedDiscounts', 'mappedDiscounts', 'giftLines', 'deliveryFeeMinor', 'deliveryFeeProductId'] as const;

/** The order body without the server-owned fields (`payment.code` included). */
export function withoutServerOwned<T extends Record<string, unknown>>(body: T): T {
  const copy: Record<string, unknown> = { ...body };
  for (const k of SERVER_OWNED_TOP) delete copy[k];
  if (copy.payment && typeof copy.payment === 'object') {
    const p = { ...(copy.payment as Record<string, unknown>) };
    delete p.code;
    copy.payment = p;
  }
  return copy as T;
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const keys = Object.keys(v as object).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * payloadSha256: lowercase hex SHA-256 of the canonical JSON of the order body (object keys sorted, no whitespace,
 * array order kept) after removing the six server-owned fields. So the same order sent with other whitespace,
 * key order or server-owned values is the same order; any other change is a different body (409).
 */
export function payloadSha256(body: Record<string, unknown>): string {
  return createHash('sha256')
    .update(canonical(withoutServerOwned(body)), 'utf8')
    .digest('hex');
}
