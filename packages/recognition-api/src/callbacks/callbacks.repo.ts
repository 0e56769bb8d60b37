import type { Queryable } from '@app/shared';

/** A callback delivery row: durable, so a restart between attempts loses nothing. */
export interface CallbackRecord {
  id: string;
  documentId: string;
  /** Owner key of the document (per-key delivery cap, signing secret); null only for rows older than migration 003. */
  apiKeyId: string | null;
  url: string;
  payload: Record<string, unknown>;
  /** POSTs made in the current series. */
  attempts: number;
  nextAttemptAt: Date;
  /** Attempt series: 1 for the automatic one, +1 per re-send (POST …/callbacks/resend). */
  series: number;
  /** Fencing token of the sender that claimed the row (migration 006): its outcome writes name it. */
  leaseToken: number;
}

/** The outcome of one POST, recorded by {@link CallbacksRepo.recordAttempt}. */
export interface AttemptOutcome {
  startedAt: Date;
  finishedAt: Date;
  outcome: 'delivered' | 'failed';
  /** The receiver's status, null when no response came (network error, timeout). */
  httpStatus: number | null;
  /** Why it failed (caller-visible: no internals), null when delivered. */
  error: string | null;
  /** When to try again; null ends the series (`delivered`, or `failed` for good). */
  nextAt: Date | null;
}

/** One recorded POST (GET /api/v1/documents/{id}/callbacks). */
export interface AttemptRecord {
  series: number;
  attempt: number;
  startedAt: Date;
  finishedAt: Date;
  outcome: 'delivered' | 'failed';
  httpStatus: number | null;
  error: string | null;
}

/** A document's callback row with its attempt log, oldest attempt first. */
export interface CallbackHistory {
  id: string;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  series: number;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  createdAt: Date;
  log: AttemptRecord[];
}

interface Row {
  id: string;
  document_id: string;
  api_key_id: string | null;
  url: string;
  payload: Record<string, unknown>;
  attempts: number;
  next_attempt_at: Date;
  series: number;
  lease_token: number;
}
const toRecord = (r: Row): CallbackRecord => ({
  id: r.id,
  documentId: r.document_id,
  apiKeyId: r.api_key_id,
  url: r.url,
  payload: r.payload,
  attempts: r.attempts,
  nextAttemptAt: new Date(r.next_attempt_at),
  series: r.series,
  leaseToken: r.lease_token,
});
const COLUMNS = 'id, document_id, api_key_id, url, payload, attempts, next_attempt_at, series, lease_token';

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
   * Each claim gets a new fencing token (`leaseToken`): only that sender's outcome is recorded (docs/decisions.md "Callback delivery").
   */
  async claimDue(now: Date, leaseMs: number, opts: { limit?: number; excludeKeys?: string[] } = {}): Promise<CallbackRecord[]> {
    const due = `status = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until < $1)`;
    const rows = await this.db.query<Row>(
      `UPDATE callbacks SET lease_until = $2, lease_token = lease_token + 1 WHERE ${due} AND id IN (
         SELECT id FROM (
           SELECT id, next_attempt_at, row_number() OVER (PARTITION BY coalesce(api_key_id, id) ORDER BY next_attempt_at, id) AS rn
           FROM callbacks WHERE ${due} AND NOT (coalesce(api_key_id, '') = ANY($3::text[]))) c
         WHERE rn = 1 ORDER BY next_attempt_at, id LIMIT $4)
       RETURNING ${COLUMNS}`,
      [now, new Date(now.getTime() + leaseMs), opts.excludeKeys ?? [], opts.limit ?? 1],
    );
    return rows.map(toRecord);
  }

  /**
   * Records one POST of the sender holding `claim` and moves the row (delivered / next attempt at `nextAt` /
   * failed for good) in one statement; false, and nothing written, when that sender no longer holds the row
   * (its lease ran out and another sender claimed it: a stale outcome must not count twice).
   */
  async recordAttempt(claim: Pick<CallbackRecord, 'id' | 'leaseToken'>, o: AttemptOutcome): Promise<boolean> {
    const rows = await this.db.query(
      `WITH u AS (
         UPDATE callbacks SET attempts = attempts + 1, lease_until = NULL, last_error = $3,
           status = CASE WHEN $4 = 'delivered' THEN 'delivered' WHEN $5::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
           next_attempt_at = COALESCE($5::timestamptz, next_attempt_at)
         WHERE id = $1 AND lease_token = $2 AND status = 'pending' RETURNING id, series, attempts)
       INSERT INTO callback_attempts (callback_id, series, attempt, started_at, finished_at, outcome, http_status, error)
       SELECT id, series, attempts, $6, $7, $4, $8, $3 FROM u RETURNING callback_id`,
      [claim.id, claim.leaseToken, o.error?.slice(0, 500) ?? null, o.outcome, o.nextAt, o.startedAt, o.finishedAt, o.httpStatus],
    );
    return rows.length > 0;
  }

  /**
   * Starts a new attempt series for a document's callback that is not pending (POST …/callbacks/resend): series
   * +1, attempts 0, due at `now`, a new token (fences any stale sender). Null when there is no such row or it is
   * still pending.
   */
  async resend(documentId: string, now: Date): Promise<CallbackRecord | null> {
    const rows = await this.db.query<Row>(
      `UPDATE callbacks SET status = 'pending', series = series + 1, attempts = 0, next_attempt_at = $2, lease_until = NULL,
         last_error = NULL, lease_token = lease_token + 1
       WHERE document_id = $1 AND status <> 'pending' RETURNING ${COLUMNS}`,
      [documentId, now],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** A document's callback with every recorded POST, or null when it has none. */
  async history(documentId: string): Promise<CallbackHistory | null> {
    const rows = await this.db.query<{
      id: string;
      url: string;
      status: CallbackHistory['status'];
      series: number;
      attempts: number;
      next_attempt_at: Date;
      last_error: string | null;
      created_at: Date;
    }>('SELECT id, url, status, series, attempts, next_attempt_at, last_error, created_at FROM callbacks WHERE document_id = $1', [documentId]);
    const r = rows[0];
    if (!r) return null;
    const log = await this.db.query<{
      series: number;
      attempt: number;
      started_at: Date;
      finished_at: Date;
      outcome: AttemptRecord['outcome'];
      http_status: number | null;
      error: string | null;
    }>(
      `SELECT series, attempt, started_at, finished_at, outcome, http_status, error FROM callback_attempts
       WHERE callback_id = $1 ORDER BY series, attempt`,
      [r.id],
    );
    return {
      id: r.id,
      url: r.url,
      status: r.status,
      series: r.series,
      attempts: r.attempts,
      nextAttemptAt: new Date(r.next_attempt_at),
      lastError: r.last_error,
      createdAt: new Date(r.created_at),
      log: log.map((a) => ({
        series: a.series,
        attempt: a.attempt,
        startedAt: new Date(a.started_at),
        finishedAt: new Date(a.finished_at),
        outcome: a.outcome,
        httpStatus: a.http_status,
        error: a.error,
      })),
    };
  }

  /** The delivery state of a document's callback (tests, support). */
  async forDocument(documentId: string): Promise<{ status: string; attempts: number; next_attempt_at: Date; last_error: string | null } | null> {
    const rows = await this.db.query<{ status: string; attempts: number; next_attempt_at: Date; last_error: string | null }>(
      'SELECT status, attempts, next_attempt_at, last_error FROM callbacks WHERE document_id = $1',
      [documentId],
    );
    return rows[0] ?? null;
  }

  /** Removes a document's callback and its attempt log. */
  async deleteForDocument(documentId: string): Promise<void> {
    await this.db.query('DELETE FROM callback_attempts WHERE callback_id IN (SELECT id FROM callbacks WHERE document_id = $1)', [documentId]);
    await this.db.query('DELETE FROM callbacks WHERE document_id = $1', [documentId]);
  }
}
