/** Shapes every part of the Delivery Partner API shares: coordinates, error bodies, path and header parameters. */
import { Type } from 'typebox';
import { strict } from '@app/shared/typebox';

/** WGS 84 coordinates in degrees. Spec: Resources, Point `location`. */
export const Location = Type.Object({ lat: Type.Number({ minimum: -90, maximum: 90 }), lon: Type.Number({ minimum: -180, maximum: 180 }) }, strict);

/** Partner error body `{error: code}`. Spec: Errors. */
export const ErrorBody = Type.Object({ error: Type.String() }, { additionalProperties: true });

/** POS protocol error body `{error, message}`. */
export const PosErrorBody = Type.Object({ error: Type.String(), message: Type.String() });

/** Path parameter `{pointId}` (the partner's external point id). */
export const PointIdParams = Type.Object({ pointId: Type.String({ minLength: 1, maxLength: 64 }) });

/** Header map for signed requests, documented in OpenAPI (values checked by the authenticator). Spec: Authentication. */
export const SignedHeadersSchema = Type.Object({
  'x-api-key': Type.Optional(Type.String({ description: 'issued key, at least 8 characters' })),
  'x-timestamp': Type.Optional(Type.String({ description: 'Unix seconds, within 60 s of server time' })),
  'x-request-id': Type.Optional(Type.String({ description: 'new UUID per request, single use per key' })),
  'x-signature': Type.Optional(Type.String({ description: 'lowercase hex HMAC-SHA256 of the canonical string' })),
});
