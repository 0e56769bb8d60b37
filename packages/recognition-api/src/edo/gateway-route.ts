import type { TSchema } from 'typebox';
import { ErrorBody } from './edo.schemas.js';

/** The error answers every pass-through gateway route documents (the operator's refusals mapped by the adapter). */
export const GATEWAY_ERRORS = {
  401: ErrorBody,
  402: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  422: ErrorBody,
  429: ErrorBody,
  502: ErrorBody,
  503: ErrorBody,
};

/**
 * The route schema of a pass-through gateway route (Spec: E-document operator gateway): tag `edo`, its operation
 * id and summary, its inputs (`querystring`, `params`, `body`, `produces`, in the order given), the operator's
 * object as the 200 answer and {@link GATEWAY_ERRORS}. One shape for all of them, so the routes stay one line of
 * schema each and the OpenAPI document lists every route alike.
 */
export function gatewaySchema<Ok extends TSchema, Input extends object = object>(operationId: string, summary: string, ok: Ok, input?: Input) {
  return { tags: ['edo'], operationId, summary, ...(input ?? ({} as Input)), response: { 200: ok, ...GATEWAY_ERRORS } };
}
