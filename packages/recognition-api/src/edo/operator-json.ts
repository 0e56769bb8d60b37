import { isInteger, isSafeNumber, parse, stringify } from 'lossless-json';

/**
 * The JSON values of the port (`OperatorJson`) keep the operator's 64-bit integers (e.g. .NET ticks) exactly: such
 * integers are bigints, read and written by these two functions (lossless-json), on both sides of the port.
 */

/** Integers beyond 2^53 become bigint so not a digit is lost; every other number stays a number. */
const parseNumber = (text: string): number | bigint => (isInteger(text) && !isSafeNumber(text) ? BigInt(text) : Number(text));

/** Parses an operator's JSON body without losing the last digits of 64-bit integers. */
export function parseOperatorJson(text: string): unknown {
  return parse(text, null, parseNumber);
}

/** Serializes what {@link parseOperatorJson} read (bigints are written as plain JSON integers). */
export function stringifyJson(value: unknown): string {
  return stringify(value) ?? 'null';
}
