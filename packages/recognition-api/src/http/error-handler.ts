import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../errors.js';

function send(reply: FastifyReply, err: ApiError): FastifyReply {
  if (Object.keys(err.headers).length > 0) void reply.headers(err.headers);
  return reply
    .status(err.status)
    .type('application/json; charset=utf-8')
    .send({ error: { code: err.code, message: err.message } });
}

/** The parameter a Fastify/Ajv validation error is about, e.g. `limit` or `format`. */
function paramOf(fe: FastifyError): string {
  const v = fe.validation?.[0];
  const params = v?.params as { missingProperty?: string; additionalProperty?: string } | undefined;
  const path = (v?.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const child = params?.missingProperty ?? params?.additionalProperty;
  if (child) return path ? `${path}.${child}` : child;
  return path || fe.validationContext || 'request';
}

/**
 * One renderer for every error (Spec: Errors, `{error: {code, message}}`): ApiError → its table status; schema
 * failures, unparsable bodies and other 4xx from Fastify → 422 VALIDATION_ERROR naming the parameter; anything
 * else → 500 INTERNAL_ERROR, logged with the request id, nothing internal in the body.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      return send(reply, error);
    }
    const fe = error as FastifyError;
    if (fe.validation) {
      const v = fe.validation[0];
      return send(reply, new ApiError('VALIDATION_ERROR', `${paramOf(fe)}: ${v?.message ?? 'is invalid'}`));
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return send(reply, new ApiError('VALIDATION_ERROR', `request: ${fe.message}`));
    }
    request.log.error({ err: error }, 'unexpected failure');
    return send(reply, new ApiError('INTERNAL_ERROR', 'internal error'));
  });
  app.setNotFoundHandler((_request, reply) => send(reply, new ApiError('NOT_FOUND', 'no such route')));
}
