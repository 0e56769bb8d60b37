import { createHash } from 'node:crypto';

/** Revision of a document: the first 16 hex chars of SHA-256 over its canonical JSON. "0" = never synced. */
export function contentRevision(doc: unknown): string {
  return createHash('sha256').update(JSON.stringify(doc)).digest('hex').slice(0, 16);
}

export const NEVER_SYNCED_REVISION = '0';

/** Menu freshness: `stale` after 30 minutes without a sync. Spec: Menu.stale, Limits. */
export const STALE_AFTER_MS = 30 * 60 * 1000;
