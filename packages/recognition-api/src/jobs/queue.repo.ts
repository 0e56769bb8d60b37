import type { Queryable } from '@app/shared';
import { toRecord } from '../documents/documents.repo.js';
import type { DocumentRecord } from '../documents/documents.types.js';

/**
 * The durable job queue: document rows themselves. A worker claims one due row with `FOR UPDATE SKIP LOCKED`
 * (several workers and instances never take the same row) and holds it under a lease; a row whose lease ran
 * out (its worker died) is claimable again, so a restart loses nothing.
 */
export class QueueRepo {
  constructor(private readonly db: Queryable) {}

  /**
   * Claims the oldest due document: `queued` with `available_at <= now` (batch rows become due at their quarter
   * hour), or `processing` with an expired lease. Sets status `processing`, `lease_until = now + leaseMs`, attempts+1.
   */
  async claim(now: Date, leaseMs: number): Promise<DocumentRecord | null> {
    const rows = await this.db.query<Parameters<typeof toRecord>[0]>(
      `UPDATE documents SET status = 'processing', lease_until = $2, attempts = attempts + 1
       WHERE id = (
         SELECT id FROM documents
         WHERE (status = 'queued' AND available_at <= $1) OR (status = 'processing' AND lease_until < $1)
         ORDER BY available_at, created_at, id
         LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [now, new Date(now.getTime() + leaseMs)],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** Extends a held lease (long recognitions); false when the row is no longer ours to hold. */
  async renew(id: string, until: Date): Promise<boolean> {
    return (await this.db.query(`UPDATE documents SET lease_until = $2 WHERE id = $1 AND status = 'processing' RETURNING id`, [id, until])).length > 0;
  }

  /** Puts a held document back in the queue, due at `at` (engine unavailable); false when no longer held. */
  async release(id: string, at: Date): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE documents SET status = 'queued', available_at = $2, lease_until = NULL WHERE id = $1 AND status = 'processing' RETURNING id`,
      [id, at],
    );
    return rows.length > 0;
  }

  /** Documents waiting or in work (health `queue_size`). */
  async size(): Promise<number> {
    const r = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM documents WHERE status IN ('queued', 'processing')`);
    return r[0]!.n;
  }

  /** Mean `processing_time_ms` of the last 100 completed documents (health), 0 when none. */
  async avgProcessingMs(): Promise<number> {
    const r = await this.db.query<{ avg: string | number | null }>(
      `SELECT avg(processing_time_ms) AS avg FROM (SELECT processing_time_ms FROM documents WHERE status = 'completed'
         ORDER BY completed_at DESC LIMIT 100) t`,
    );
    return Math.round(Number(r[0]?.avg ?? 0));
  }
}
