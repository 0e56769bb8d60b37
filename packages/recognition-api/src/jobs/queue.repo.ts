import type { Queryable } from '@app/shared';
import { toRecord } from '../documents/documents.repo.js';
import type { DocumentRecord, Priority } from '../documents/documents.types.js';

/** What a holder writes with: the document and the fencing token its claim got. */
export type JobClaim = Pick<DocumentRecord, 'id' | 'leaseToken'>;

/** Documents that may be claimed at `$1`: queued and due (batch rows at their tick), or held under an expired lease. */
const DUE = `((status = 'queued' AND available_at <= $1) OR (status = 'processing' AND lease_until < $1))`;
/**
 * Priority class: a high document abandoned by a dead request first, then normal, then batch; on a batch turn
 * (`$3`, every {@link BATCH_SHARE_EVERY}-th claim) batch goes before normal.
 */
const CLASS = `CASE priority WHEN 'high' THEN 0 WHEN 'normal' THEN (CASE WHEN $3 THEN 2 ELSE 1 END) ELSE (CASE WHEN $3 THEN 1 ELSE 2 END) END`;

/** A document that must be re-run alone is claimable only by a claim made alone (`$4`). */
const CLAIMABLE = `($4 OR NOT (isolate OR (status = 'processing' AND NOT claimed_alone)))`;

/**
 * Batch documents' guaranteed share of the workers (docs/decisions.md "Batch share and key fairness"; Spec: Limits, "Batch processing: every
 * 15 minutes"): one claim in 4, counted across all workers and instances by a database sequence, takes due batch
 * work first. Under a sustained normal load a quarter-hour batch therefore gets about a quarter of the claims
 * instead of waiting for the normal queue to empty; with no normal work it gets them all.
 */
export const BATCH_SHARE_EVERY = 4;

/**
 * The durable job queue: document rows themselves (docs/recognition.md explains why not pg-boss). A worker
 * claims one due row under a lease; a row whose lease ran out (its worker died) is claimable again, so a restart
 * loses nothing. Several workers and instances share it: the claim is a conditional UPDATE with
 * `FOR UPDATE SKIP LOCKED`, so no row is taken twice.
 */
export class QueueRepo {
  constructor(private readonly db: Queryable) {}

  /**
   * Claims the next document by the fair order (docs/decisions.md "Claim order and job timeout"): the best priority class that has due work
   * (normal before batch, except on every {@link BATCH_SHARE_EVERY}-th claim, which prefers batch), within it the API key whose last turn is oldest (round-robin: one key's
   * thousand-page batch cannot delay another key's single document), within the key the oldest due row. Sets
   * status `processing`, `lease_until = now + leaseMs`, attempts+1, a new fencing token (`lease_token`+1, the
   * returned record's `leaseToken`), and records the key's turn. `alone`: the caller's process runs nothing else
   * and will run nothing else alongside (see JobGate); only such a claim may take a document that must be re-run
   * alone (`isolate`), and only a death during such a run is charged to the document (docs/decisions.md "Poison documents run alone").
   */
  async claim(now: Date, leaseMs: number, opts: { alone?: boolean } = {}): Promise<(DocumentRecord & { isolate: boolean }) | null> {
    const turn = await this.db.query<{ n: string | number }>(`SELECT nextval('queue_claim_seq') AS n`);
    const batchTurn = Number(turn[0]!.n) % BATCH_SHARE_EVERY === 0;
    // The keys in round-robin order, then each key's rows; SKIP LOCKED passes over a row another worker is taking
    // right now and goes on to the next row or key, so a second worker never comes back empty while due work is
    // left (docs/decisions.md "Batch share and key fairness": picking one key first left it idle for a poll interval).
    const rows = await this.db.query<Parameters<typeof toRecord>[0]>(
      `WITH due AS (SELECT api_key_id, ${CLASS} AS cls, created_at FROM documents WHERE ${DUE} AND ${CLAIMABLE}),
            best AS (SELECT min(cls) AS cls FROM due),
            key_order AS (
              SELECT d.api_key_id, t.last_turn, min(d.created_at) AS first_at
              FROM due d JOIN best b ON d.cls = b.cls LEFT JOIN queue_turns t ON t.api_key_id = d.api_key_id
              GROUP BY d.api_key_id, t.last_turn)
       UPDATE documents SET status = 'processing', lease_until = $2, lease_token = lease_token + 1,
         -- A holder that died (lease ran out) while sharing its process with other documents proves nothing about
         -- this one: the attempt it was charged is given back and the document is re-run alone (docs/decisions.md "Poison documents run alone").
         attempts = attempts + 1 - (CASE WHEN status = 'processing' AND NOT claimed_alone THEN 1 ELSE 0 END),
         isolate = isolate OR (status = 'processing' AND NOT claimed_alone),
         claimed_alone = (isolate OR (status = 'processing' AND NOT claimed_alone)) AND $4
       WHERE id = (
         SELECT d.id FROM documents d JOIN key_order k ON k.api_key_id = d.api_key_id, best b
         WHERE ${DUE.replace(/status|available_at|lease_until/g, 'd.$&')} AND ${CLASS.replace('priority', 'd.priority')} = b.cls
           AND ${CLAIMABLE.replace(/isolate|status|claimed_alone/g, 'd.$&')}
         ORDER BY k.last_turn NULLS FIRST, k.first_at, d.api_key_id, d.available_at, d.created_at, d.id
         LIMIT 1 FOR UPDATE OF d SKIP LOCKED)
       RETURNING *`,
      [now, new Date(now.getTime() + leaseMs), batchTurn, opts.alone ?? false],
    );
    const doc = rows[0] ? { ...toRecord(rows[0]), isolate: (rows[0] as { isolate?: boolean }).isolate === true } : null;
    if (doc) {
      await this.db.query(
        `INSERT INTO queue_turns (api_key_id, last_turn) VALUES ($1, nextval('queue_turn_seq'))
         ON CONFLICT (api_key_id) DO UPDATE SET last_turn = EXCLUDED.last_turn`,
        [doc.apiKeyId],
      );
    }
    return doc;
  }

  /**
   * Extends the lease of the holder of `claim` (long recognitions); false when the row is no longer that holder's
   * (finished, released, deleted, or claimed again under a newer token): the holder must stop (docs/decisions.md "Job fencing").
   */
  async renew(claim: JobClaim, until: Date): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE documents SET lease_until = $2 WHERE id = $1 AND status = 'processing' AND lease_token = $3 RETURNING id`,
      [claim.id, until, claim.leaseToken],
    );
    return rows.length > 0;
  }

  /**
   * Puts the document of `claim` back in the queue, due at `at`; false when that holder no longer holds it.
   * `charge: false` gives the claim's attempt back (a shutdown is not the document's fault: docs/decisions.md "Shutdown releases jobs");
   * `true` keeps it counted (engine unavailable, at most MAX_JOB_ATTEMPTS in all).
   */
  async release(claim: JobClaim, at: Date, opts: { charge: boolean }): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE documents SET status = 'queued', available_at = $2, lease_until = NULL,
         attempts = CASE WHEN $4::boolean THEN attempts ELSE greatest(attempts - 1, 0) END
       WHERE id = $1 AND status = 'processing' AND lease_token = $3 RETURNING id`,
      [claim.id, at, claim.leaseToken, opts.charge],
    );
    return rows.length > 0;
  }

  /** Documents waiting or in work (health `queue_size`). */
  async size(): Promise<number> {
    const r = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM documents WHERE status IN ('queued', 'processing')`);
    return r[0]!.n;
  }

  /** Documents queued and not yet claimed, per priority (metrics `recognition_queue_depth`); absent priorities have none. */
  async depthByPriority(): Promise<Partial<Record<Priority, number>>> {
    const rows = await this.db.query<{ priority: Priority; n: number }>(
      `SELECT priority, count(*)::int AS n FROM documents WHERE status = 'queued' GROUP BY priority`,
    );
    return Object.fromEntries(rows.map((r) => [r.priority, r.n]));
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
