import { isDoubtfulValueWarning } from './doubtful-fields.js';

/**
 * Confidence score (Spec: Validation and confidence): 1.00 − 0.05 per warning − 0.10 per empty critical field
 * (seller INN, buyer INN, total with VAT) − a further 0.10 when totals do not match the lines; never below 0.10;
 * two decimals. Computed in hundredths (integers) so no floating-point residue reaches the response.
 * Below {@link MANUAL_CHECK_BELOW} a manual check is recommended.
 */
export function computeConfidence(input: { warnings: number; emptyCritical: number; totalsMismatch: boolean }): number {
  const hundredths = 100 - 5 * input.warnings - 10 * input.emptyCritical - (input.totalsMismatch ? 10 : 0);
  return Math.max(10, hundredths) / 100;
}

/** The spec's threshold for a recommended manual check. */
export const MANUAL_CHECK_BELOW = 0.8;

/**
 * `manual_check_recommended` (ours, additive to the spec): the spec's "below 0.80" (Spec: Validation and
 * confidence), and also any document with a value the engine asks a person to compare with the page
 * (doubtful-fields.ts) or a corrective document it did not read (docs/decisions.md, "Reading real documents"). On the development set's clean and scan
 * tiers confidence < 0.80 alone caught 9 of 14 documents with a wrong field; with the doubtful values, 14 of 14.
 */
export function manualCheckRecommended(confidence: number | null | undefined, warnings: readonly { message: string }[] | null | undefined): boolean {
  if ((confidence ?? 0) < MANUAL_CHECK_BELOW) return true;
  return (warnings ?? []).some((w) => isDoubtfulValueWarning(w) || /^corrective document/.test(w.message));
}
