import { Type, type TSchema } from 'typebox';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';

export const Location = Type.Object(
  { lat: Type.Number({ minimum: -90, maximum: 90 }), lon: Type.Number({ minimum: -180, maximum: 180 }) },
  { additionalProperties: false },
);

/** Partner error body `{error: code}`. Spec: Errors. */
export const ErrorBody = Type.Object({ error: Type.String() }, { additionalProperties: true });

/** POS protocol error body `{error, message}`. */
export const PosErrorBody = Type.Object({ error: Type.String(), message: Type.String() });

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

export const PointIdParams = Type.Object({ pointId: Type.String({ minLength: 1, maxLength: 64 }) });

/** Header map for signed requests, documented in OpenAPI (values checked by the authenticator). */
export const SignedHeadersSchema = Type.Object({
  'x-api-key': Type.Optional(Type.String({ description: 'issued key, at least 8 characters' })),
  'x-timestamp': Type.Optional(Type.String({ description: 'Unix seconds, within 60 s of server time' })),
  'x-request-id': Type.Optional(Type.String({ description: 'new UUID per request, single use per key' })),
  'x-signature': Type.Optional(Type.String({ description: 'lowercase hex HMAC-SHA256 of the canonical string' })),
});
