/**
 * Small TypeBox building blocks that every contract module (delivery and recognition) writes the same way. Pure
 * schema constructors: no Fastify, no runtime state.
 */
import { type TSchema, Type } from 'typebox';

/** Object options that reject unknown properties (`additionalProperties: false`), for request and wire shapes. */
export const strict = { additionalProperties: false } as const;

/** `T | null`: a field that is always present but may be null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * A string enum as `{type: 'string', enum: [...]}`: typed by TypeBox as the union of the values, serialised by
 * Fastify's fast-json-stringify as a string, and listed as an enum in the OpenAPI document.
 */
export const literals = <const T extends readonly string[]>(values: T) => Type.Enum(values, { type: 'string' } as never);
