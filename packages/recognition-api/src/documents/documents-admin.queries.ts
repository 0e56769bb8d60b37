import type { Queryable } from '@app/shared';
import { MANUAL_CHECK_BELOW } from '../engine/confidence/confidence.js';
import { nextBatchTick } from '../jobs/batch-schedule.js';

/**
 * The panel's "needs review" condition on a `documents` row aliased `d`, in SQL: completed and
 * `manual_check_recommended` (engine/confidence/confidence.ts `manualCheckRecommended`): confidence below 0.80, or a
 * warning that asks a person to compare a value with the page (`… check it against the page`), or a corrective
 * document the engine did not read (`corrective document …`). The test of the filter checks it against the function.
 */
export const NEEDS_REVIEW_SQL = `(d.status = 'completed' AND (d.confidence < ${MANUAL_CHECK_BELOW} OR EXISTS (
  SELECT 1 FROM json_array_elements(coalesce(d.warnings, '[]'::json)) w
   WHERE w->>'message' LIKE '%check it against the page' OR w->>'message' LIKE 'corrective document%')))`;

/** Admin-only access to `documents` that the API's repository does not offer (it always filters by owner). */
export class DocumentsAdminQueries {
  constructor(private readonly db: Queryable) {}

  /**
   * Puts a `failed` document back in the queue as a new upload would be (`queued`, due now, a batch one at the next
   * quarter hour), with its attempts, error and isolation cleared; false when it is not (or no longer) failed.
   * The lease token moves on, so a late write of a holder of the old run matches nothing.
   */
  async requeueFailed(id: string, now: Date): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE documents SET status = 'queued',
              available_at = CASE WHEN priority = 'batch' THEN $3::timestamptz ELSE $2::timestamptz END,
              lease_until = NULL, lease_token = lease_token + 1, attempts = 0, isolate = false, claimed_alone = false,
              completed_at = NULL, processing_time_ms = NULL, error_code = NULL, error_message = NULL
        WHERE id = $1 AND status = 'failed' RETURNING id`,
      [id, now, nextBatchTick(now)],
    );
    return rows.length > 0;
  }
}
