/**
 * Generic TypeBox helpers for the wire contracts of both services (`@app/shared/typebox`; imports only TypeBox, so a
 * contract package or the partner SDK can use it without pulling in the database code of `@app/shared`).
 */
import { Type, type TSchema } from 'typebox';

/** Object options that refuse properties the schema does not name. */
export const strict = { additionalProperties: false } as const;

/** `T | null`: a field that is always present and null when unknown. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * A string enum with `type: string`, so serialisers and code generators see a string (a bare `enum` has no type).
 * `description` is set only when given, so the published JSON stays free of empty keys.
 */
export const literals = <const V extends string[]>(values: readonly [...V], description?: string) =>
  Type.Enum(values, { type: 'string', ...(description ? { description } : {}) } as never);

/** Every optional property of `T` required, at every depth (arrays included); what {@link strictDeep} returns. */
export type DeepRequired<T> = T extends readonly (infer E)[] ? DeepRequired<E>[] : T extends object ? { [K in keyof T]-?: DeepRequired<T[K]> } : T;

/**
 * A plain JSON-schema copy of `schema` in which every object names all its properties as required and refuses
 * others (`additionalProperties: false`), at every depth: the form that structured-output APIs in strict mode
 * accept. Optional properties become required (the caller keeps them `X | null` so "absent" has a spelling).
 * The copy is plain JSON (TypeBox's hidden markers dropped), so it can be sent as is and checked with `Value.Check`.
 */
export function strictDeep(schema: TSchema): TSchema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = walk(value);
    if (out.type === 'object' && out.properties && typeof out.properties === 'object') {
      out.required = Object.keys(out.properties);
      out.additionalProperties = false;
    }
    return out;
  };
  return walk(JSON.parse(JSON.stringify(schema))) as TSchema;
}
