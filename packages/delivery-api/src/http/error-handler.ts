import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

function isPos(request: FastifyRequest): boolean {
  return request.url.startsWith('/pos/');
}

function send(reply: FastifyReply, request: FastifyRequest, err: ApiError): FastifyReply {
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  const body = isPos(request) ? { error: err.code, message: err.message, ...err.extra } : { error: err.code, ...err.extra };
  return reply.status(err.status).type('application/json; charset=utf-8').send(body);
}

/**
 * One renderer for every error (Spec: Errors): ApiError → its status and `{error: code}` (POS protocol adds
 * `message`); schema validation and unparsable bodies → 400 `invalid_request`; body over 2 MiB → 413 plain text;
 * anything else → 500 `internal_error`, logged with the request id, nothing internal in the body.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      if (error.status >= 500) request.log.error({ err: error, requestId: request.headers['x-request-id'] }, error.message);
      else request.log.info({ code: error.code, why: error.message }, 'request refused');
      return send(reply, request, error);
    }
    const fe = error as FastifyError;
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).type('text/plain; charset=utf-8').send('Request body larger than 2 MiB');
    }
    if (fe.validation) {
      return send(reply, request, new ApiError('invalid_request', {}, `${fe.validationContext ?? 'request'} ${fe.message}`));
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return send(reply, request, new ApiError('invalid_request', {}, fe.message));
    }
    request.log.error({ err: error, requestId: request.headers['x-request-id'] }, 'unexpected failure');
    return send(reply, request, new ApiError('internal_error', {}, 'internal error'));
  });
  app.setNotFoundHandler((request, reply) => send(reply, request, new ApiError('not_found', {}, 'no such route')));
}
