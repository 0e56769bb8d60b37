import { createHash } from 'node:crypto';

/**
 * Diadoc box ids come in two forms that name the same box: `2a208d03…@diadoc.ru` (32 hex digits) and the
 * GUID `2a208d03-…`. Both are accepted in queries, so every comparison goes through {@link normalizeBoxId}.
 */
export function normalizeBoxId(id: string): string {
  return id
    .trim()
    .toLowerCase()
    .replace(/@diadoc\.ru$/, '')
    .replace(/-/g, '');
}

/** The `@diadoc.ru` form of a GUID. */
export const boxIdOf = (guid: string): string => `${guid.replace(/-/g, '')}@diadoc.ru`;

/** A deterministic v4-shaped UUID from a label, so the seeded box has the same ids on every start. */
export function stableUuid(label: string): string {
  const h = createHash('sha256').update(`edo-simulator:${label}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The head department of every organization. */
export const HEAD_DEPARTMENT = '00000000-0000-0000-0000-000000000000';
