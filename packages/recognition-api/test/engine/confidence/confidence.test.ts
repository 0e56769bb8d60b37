import { describe, expect, it } from 'vitest';
import { computeConfidence, manualCheckRecommended } from '../../../src/engine/confidence/confidence.js';

describe('computeConfidence (Spec: Validation and confidence)', () => {
  it('starts at 1.00', () => expect(computeConfidence({ warnings: 0, emptyCritical: 0, totalsMismatch: false })).toBe(1));
  it('minus 0.05 per warning', () => expect(computeConfidence({ warnings: 3, emptyCritical: 0, totalsMismatch: false })).toBe(0.85));
  it('minus 0.10 per empty critical field', () => expect(computeConfidence({ warnings: 0, emptyCritical: 2, totalsMismatch: false })).toBe(0.8));
  it('minus a further 0.10 when totals do not match', () =>
    expect(computeConfidence({ warnings: 1, emptyCritical: 0, totalsMismatch: true })).toBe(0.85));
  it('combined, exact to two decimals', () => expect(computeConfidence({ warnings: 7, emptyCritical: 1, totalsMismatch: true })).toBe(0.45));
  it('never below 0.10', () => expect(computeConfidence({ warnings: 30, emptyCritical: 3, totalsMismatch: true })).toBe(0.1));
});

describe('manual_check_recommended (ours)', () => {
  it('below 0.80 as the spec says', () => {
    expect(manualCheckRecommended(0.75, [])).toBe(true);
    expect(manualCheckRecommended(0.8, [])).toBe(false);
    expect(manualCheckRecommended(null, null)).toBe(true);
  });
  it('also when a value must be compared with the page, or a corrective document was not read', () => {
    expect(manualCheckRecommended(0.95, [{ message: 'item name read with low confidence (0.71); check it against the page' }])).toBe(true);
    expect(
      manualCheckRecommended(0.95, [
        { message: 'corrective document (УКД / корректировочный счёт-фактура): not supported; its lines and totals were not read' },
      ]),
    ).toBe(true);
    expect(manualCheckRecommended(0.95, [{ message: 'unit "штука" does not match OKEI code 166' }])).toBe(false);
  });
});
