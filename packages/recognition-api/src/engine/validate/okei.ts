/**
 * Common OKEI (ОКЕИ, the all-Russian classifier of units of measure) codes with the short names accepted for
 * each. Not the whole classifier: the units that appear on goods documents; an unlisted code gives a warning
 * that asks for a manual check, it does not fail the document.
 */
export const OKEI_UNITS: Readonly<Record<string, readonly string[]>> = {
  '796': ['шт'],
  '166': ['кг'],
  '163': ['г'],
  '168': ['т'],
  '112': ['л', 'дм3'],
  '111': ['мл', 'см3'],
  '006': ['м'],
  '004': ['см'],
  '003': ['мм'],
  '008': ['км'],
  '018': ['пог.м', 'погм'],
  '055': ['м2', 'кв.м'],
  '113': ['м3', 'куб.м'],
  '778': ['упак', 'уп'],
  '704': ['набор', 'наб'],
  '839': ['компл', 'комплект', 'кмп'],
  '625': ['лист'],
  '715': ['пар', 'пара'],
  '356': ['ч', 'час'],
  '355': ['мин'],
  '359': ['сут', 'дн', 'день'],
  '362': ['мес'],
  '876': ['усл.ед', 'ед', 'услуга'],
  '642': ['ед'],
  '616': ['боб', 'бобина'],
  '736': ['рул', 'рулон'],
  '798': ['тыс.шт'],
  '868': ['бут', 'бутылка'],
  '812': ['ящ', 'ящик'],
  '870': ['ампул'],
  '384': ['тыс.руб'],
  '383': ['руб'],
  '245': ['квт.ч', 'квтч'],
};

/** Lower-cases and drops spaces, a trailing dot and superscripts so `Пог. м`, `пог.м`, `м²` compare equal. */
export function normaliseUnitName(name: string): string {
  return name.toLowerCase().replace(/\s+/g, '').replace(/²/g, '2').replace(/³/g, '3').replace(/\.$/, '');
}

/** `unknown_code` when the code is not in the table, `name_mismatch` when the name is not one of the code's names. */
export function checkUnit(code: string, name: string | null): 'ok' | 'unknown_code' | 'name_mismatch' {
  const names = OKEI_UNITS[code.trim()];
  if (!names) return 'unknown_code';
  if (name == null || name.trim() === '') return 'ok';
  const n = normaliseUnitName(name);
  return names.some((x) => normaliseUnitName(x) === n) ? 'ok' : 'name_mismatch';
}
