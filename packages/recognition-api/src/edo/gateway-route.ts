import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, FastifySchema, RawServerDefault, RouteGenericInterface } from 'fastify';
import type { TSchema } from 'typebox';
import { pass } from './pass-through.js';
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

/** The gateway's Fastify instance (TypeBox types the requests from the route schemas). */
export type GatewayApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** A request of a route with schema `S`, its querystring, params and body typed from it. */
export type GatewayRequest<S extends FastifySchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  IncomingMessage,
  S,
  TypeBoxTypeProvider
>;

/**
 * Registers a pass-through gateway route: `schema` (from {@link gatewaySchema}) and a handler that makes one
 * service call and answers the operator's object as it came ({@link pass}). The routes with their own reply
 * handling (health, content, send) are written out in edo.routes.ts.
 */
export function passRoute<S extends FastifySchema>(
  app: GatewayApp,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  schema: S,
  call: (request: GatewayRequest<S>) => Promise<unknown>,
): void {
  // Fastify types a handler from its schema only for an inline literal: here the schema is passed on as a plain
  // FastifySchema and `call` gets the request typed from `S` (the same validation runs either way).
  const route: FastifySchema = schema;
  app.route({ method, url, schema: route, handler: (request) => pass(call(request as unknown as GatewayRequest<S>)) });
}
