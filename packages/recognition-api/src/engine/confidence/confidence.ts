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
