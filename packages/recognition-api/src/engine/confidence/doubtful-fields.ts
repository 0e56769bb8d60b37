import type { EngineWarning, RecognizedData } from '../engine.port.js';

/**
 * Field confidence (0..1, docs/recognition-engine.md "Field confidence") below which a value that no check of the
 * document can prove is reported as a warning. Measured on the development set's scan tier (issue 20): item names
 * below 0.9 were wrong 64 times in 97, at 0.9 or above 0 times in 10.
 */
export const SURE_FIELD_CONFIDENCE = 0.9;

const CHECK_IT = 'check it against the page';

/** True for a warning of {@link doubtfulFieldWarnings}: a value a person has to compare with the page. */
export const isDoubtfulValueWarning = (w: { message: string }): boolean => w.message.endsWith(CHECK_IT);

/**
 * Warnings for values that nothing in the document checks and whose reading is doubtful: item names and party
 * names below {@link SURE_FIELD_CONFIDENCE}, and the document number. Amounts, INNs and units are not listed here:
 * the line arithmetic, the INN check digit and OKEI already warn when they disagree (validate/), and an unchecked
 * amount that agrees with its line is right far more often than its word confidence says.
 *
 * Each doubtful value is one warning, so a document's confidence (Spec: Validation and confidence, −0.05 per warning)
 * falls with the number of values a person has to look at, and `manual_check_recommended` (confidence < 0.80) follows
 * from five of them. `conf` maps field paths (`items[2].name`, `seller.name`) to 0..1; a missing entry counts as 0.
 */
export function doubtfulFieldWarnings(data: RecognizedData, conf: Record<string, number>): EngineWarning[] {
  const out: EngineWarning[] = [];
  const check = (path: string, value: string | null | undefined, what: string) => {
    if (value == null || value.trim() === '') return;
    const c = conf[path] ?? 0;
    if (c < SURE_FIELD_CONFIDENCE)
      out.push({ field: path, message: `${what} read with low confidence (${c.toFixed(2)}); check it against the page` });
  };
  check('document.number', data.document.number, 'document number');
  check('seller.name', data.seller.name, 'seller name');
  check('buyer.name', data.buyer.name, 'buyer name');
  for (const [i, it] of data.items.entries()) check(`items[${i}].name`, it.name, 'item name');
  return out;
}
