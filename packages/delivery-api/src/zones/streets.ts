import type { Street } from '../catalog/catalog.types.js';

/** Result of looking a street up in a POS street dictionary. Spec: resolve `street.status`, POST /v1/addresses/check. */
export type StreetMatch =
  | { status: 'ok'; street: Street }
  | { status: 'ambiguous'; candidates: Street[] }
  | { status: 'not_found' }
  | { status: 'unknown' };

/**
 * Exact-name lookup (the city is ignored; surrounding whitespace is not significant). `null` dictionary = never
 * pushed → `unknown`. Several entries with the name → `ambiguous` (the POS could not pick one).
 */
export function lookupStreet(dictionary: Street[] | null, name: string): StreetMatch {
  if (dictionary === null) return { status: 'unknown' };
  const wanted = name.trim();
  const hits = dictionary.filter((s) => s.name.trim() === wanted);
  if (hits.length === 0) return { status: 'not_found' };
  if (hits.length > 1) return { status: 'ambiguous', candidates: hits.map((s) => ({ name: s.name, city: s.city })) };
  return { status: 'ok', street: { name: hits[0].name, city: hits[0].city } };
}
