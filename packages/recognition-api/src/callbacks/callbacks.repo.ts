import type { Queryable } from '@app/shared';

/** A callback delivery row: durable, so a restart between attempts loses nothing. */
export interface CallbackRecord {
  id: string;
  documentId: string;
  url: string;
  payload: Record<string, unknown>;
  attempts: number;
  nextAttemptAt: Date;
}

interface Row { id: string; document_id: string; url: string; payload: Record<string, unknown>; attempts: number; next_attempt_at: Date }

/** SQL for callback deliveries; claim with `FOR UPDATE SKIP LOCKED` and a lease like the document queue. */
export class CallbacksRepo {
  constructor(private readonly db: Queryable) {}

  /** Schedules the first delivery at `at` (normally the completion instant). One callback per document. */
  async schedule(id: string, documentId: string, url: string, payload: Record<string, unknown>, at: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO callbacks (id, document_id, url, payload, status, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4::json, 'pending', $5, $5) ON CONFLICT (document_id) DO NOTHING`,
      [id, documentId, url, JSON.stringify(payload), at],
    );
  }

  /** Claims one due pending delivery, leasing it for `leaseMs` so a crashed sender's row comes back. */
  async claimDue(now: Date, leaseMs: number): Promise<CallbackRecord | null> {
    const rows = await this.db.query<Row>(
      `UPDATE callbacks SET lease_until = $2 WHERE id = (
         SELECT id FROM callbacks WHERE status = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until < $1)
         ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING id, document_id, url, payload, attempts, next_attempt_at`,
      [now, new Date(now.getTime() + leaseMs)],
    );
    const r = rows[0];
    return r ? { id: r.id, documentId: r.document_id, url: r.url, payload: r.payload, attempts: r.attempts, nextAttemptAt: new Date(r.next_attempt_at) } : null;
  }

  async markDelivered(id: string): Promise<void> {
    await this.db.query(`UPDATE callbacks SET status = 'delivered', attempts = attempts + 1, lease_until = NULL, last_error = NULL WHERE id = $1`, [id]);
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
      'SELECT status, attempts, next_attempt_at, last_error FROM callbacks WHERE document_id = $1', [documentId]);
    return rows[0] ?? null;
  }

  async deleteForDocument(documentId: string): Promise<void> {
    await this.db.query('DELETE FROM callbacks WHERE document_id = $1', [documentId]);
  }
}
