import type { TSchema } from 'typebox';
import { ErrorBody } from '@app/delivery-contract';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';

export { ErrorBody, Location, PointIdParams, PosErrorBody, SignedHeadersSchema } from '@app/delivery-contract';

/** Response schemas for the given error codes, keyed by status, for the OpenAPI document. */
export function errorResponses(codes: ErrorCode[], body: TSchema = ErrorBody): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    const codesForStatus = codes.filter((c) => ERROR_STATUS[c] === status);
    out[status] = { ...body, description: codesForStatus.join(', ') } as TSchema;
  }
  return out;
}

/** Errors every signed endpoint can answer. */
export const AUTH_ERRORS: ErrorCode[] = ['invalid_request', 'unauthorized', 'internal_error', 'authentication_unavailable'];
