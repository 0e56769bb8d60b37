import { MANUAL_CHECK_BELOW } from '../engine/confidence/confidence.js';

/**
 * The panel's "needs review" condition on a `documents` row aliased `d`, in SQL: completed and
 * `manual_check_recommended` (engine/confidence/confidence.ts `manualCheckRecommended`): confidence below 0.80, or a
 * warning that asks a person to compare a value with the page (`… check it against the page`), or a corrective
 * document the engine did not read (`corrective document …`). The test of the filter checks it against the function.
 */
export const NEEDS_REVIEW_SQL = `(d.status = 'completed' AND (d.confidence < ${MANUAL_CHECK_BELOW} OR EXISTS (
  SELECT 1 FROM json_array_elements(coalesce(d.warnings, '[]'::json)) w
   WHERE w->>'message' LIKE '%check it against the page' OR w->>'message' LIKE 'corrective document%')))`;
