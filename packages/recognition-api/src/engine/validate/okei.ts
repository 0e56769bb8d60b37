/**
 * Common OKEI (ОКЕИ, the all-Russian classifier of units of measure) codes with the names accepted for each: the
 * short name first (what a repair writes), then the full names 1C prints when the catalogue says so ("штука",
 * "упаковка"). Not the whole classifier: the units that appear on goods documents; an unlisted code gives a warning
 * that asks for a manual check, it does not fail the document.
 */
export const OKEI_UNITS: Readonly<Record<string, readonly string[]>> = {
  '796': ['шт', 'штука', 'штук', 'штуки'],
  '166': ['кг', 'килограмм'],
  '163': ['г', 'грамм'],
  '168': ['т', 'тонна'],
  '112': ['л', 'дм3', 'литр'],
  '111': ['мл', 'см3', 'миллилитр'],
  '006': ['м', 'метр'],
  '004': ['см', 'сантиметр'],
  '003': ['мм', 'миллиметр'],
  '008': ['км', 'километр'],
  '018': ['пог.м', 'погм', 'погонный метр'],
  '055': ['м2', 'кв.м', 'квадратный метр', 'метр квадратный'],
  '113': ['м3', 'куб.м', 'кубический метр', 'метр кубический'],
  '778': ['упак', 'уп', 'упаковка'],
  '704': ['набор', 'наб'],
  '839': ['компл', 'комплект', 'кмп'],
  '625': ['лист'],
  '715': ['пар', 'пара'],
  '356': ['ч', 'час'],
  '355': ['мин', 'минута'],
  '359': ['сут', 'дн', 'день', 'сутки'],
  '362': ['мес', 'месяц'],
  '876': ['усл.ед', 'ед', 'услуга'],
  '642': ['ед', 'единица'],
  '616': ['боб', 'бобина'],
  '736': ['рул', 'рулон'],
  '798': ['тыс.шт', 'тысяча штук'],
  '868': ['бут', 'бутылка'],
  '812': ['ящ', 'ящик'],
  '870': ['ампул', 'ампула'],
  '384': ['тыс.руб'],
  '383': ['руб'],
  '245': ['квт.ч', 'квтч', 'киловатт-час'],
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
