import type { Queryable } from '@app/shared';

/** A callback delivery row: durable, so a restart between attempts loses nothing. */
export interface CallbackRecord {
  id: string;
  documentId: string;
  /** Owner key of the document (per-key delivery cap, signing secret); null only for rows older than migration 003. */
  apiKeyId: string | null;
  url: string;
  payload: Record<string, unknown>;
  attempts: number;
  nextAttemptAt: Date;
}

interface Row {
  id: string;
  document_id: string;
  api_key_id: string | null;
  url: string;
  payload: Record<string, unknown>;
  attempts: number;
  next_attempt_at: Date;
}
const toRecord = (r: Row): CallbackRecord => ({
  id: r.id,
  documentId: r.document_id,
  apiKeyId: r.api_key_id,
  url: r.url,
  payload: r.payload,
  attempts: r.attempts,
  nextAttemptAt: new Date(r.next_attempt_at),
});

/** SQL for callback deliveries; rows are claimed under a lease like the document queue. */
export class CallbacksRepo {
  constructor(private readonly db: Queryable) {}

  /** Schedules the first delivery at `at` (normally the completion instant). One callback per document. */
  async schedule(id: string, documentId: string, apiKeyId: string, url: string, payload: Record<string, unknown>, at: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO callbacks (id, document_id, api_key_id, url, payload, status, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, $5::json, 'pending', $6, $6) ON CONFLICT (document_id) DO NOTHING`,
      [id, documentId, apiKeyId, url, JSON.stringify(payload), at],
    );
  }

  /**
   * Claims up to `limit` due pending deliveries, at most one per key and none of `excludeKeys` (keys already at
   * their in-flight cap), oldest due first, leasing each for `leaseMs` so a crashed sender's row comes back. The
   * candidates are read first and then claimed by a conditional UPDATE, so two senders never take the same row.
   */
  async claimDue(now: Date, leaseMs: number, opts: { limit?: number; excludeKeys?: string[] } = {}): Promise<CallbackRecord[]> {
    const due = `status = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until < $1)`;
    const rows = await this.db.query<Row>(
      `UPDATE callbacks SET lease_until = $2 WHERE ${due} AND id IN (
         SELECT id FROM (
           SELECT id, next_attempt_at, row_number() OVER (PARTITION BY coalesce(api_key_id, id) ORDER BY next_attempt_at, id) AS rn
           FROM callbacks WHERE ${due} AND NOT (coalesce(api_key_id, '') = ANY($3::text[]))) c
         WHERE rn = 1 ORDER BY next_attempt_at, id LIMIT $4)
       RETURNING id, document_id, api_key_id, url, payload, attempts, next_attempt_at`,
      [now, new Date(now.getTime() + leaseMs), opts.excludeKeys ?? [], opts.limit ?? 1],
    );
    return rows.map(toRecord);
  }

  /** The callback secret of a key (signing), or null when the key has none. */
  async secretFor(apiKeyId: string): Promise<string | null> {
    const rows = await this.db.query<{ callback_secret: string | null }>('SELECT callback_secret FROM api_keys WHERE id = $1', [apiKeyId]);
    return rows[0]?.callback_secret ?? null;
  }

  async markDelivered(id: string): Promise<void> {
    await this.db.query(`UPDATE callbacks SET status = 'delivered', attempts = attempts + 1, lease_until = NULL, last_error = NULL WHERE id = $1`, [
      id,
    ]);
  }

  /** Records a failed attempt: retry at `nextAt`, or `failed` for good when `nextAt` is null. */
  async markAttemptFailed(id: string, error: string, nextAt: Date | null): Promise<void> {
    await this.db.query(
      `UPDATE callbacks SET attempts = attempts + 1, lease_until = NULL, last_error = $2,
         status = CASE WHEN $3::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
         next_attempt_at = COALESCE($3::timestamptz, next_attempt_at) WHERE id = $1`,
      [id, error.slice(0, 500), nextAt],
    );
  }

  /** The delivery state of a document's callback (tests, support). */
  async forDocument(documentId: string): Promise<{ status: string; attempts: number; next_attempt_at: Date; last_error: string | null } | null> {
    const rows = await this.db.query<{ status: string; attempts: number; next_attempt_at: Date; last_error: string | null }>(
      'SELECT status, attempts, next_attempt_at, last_error FROM callbacks WHERE document_id = $1',
      [documentId],
    );
    return rows[0] ?? null;
  }

  async deleteForDocument(documentId: string): Promise<void> {
    await this.db.query('DELETE FROM callbacks WHERE document_id = $1', [documentId]);
  }
}
