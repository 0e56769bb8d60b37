import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routine polling or sync of a POS plugin: its request line is logged at debug, not info. */
    routine?: boolean;
  }
}

/**
 * One line per request ("request completed": method, path without the query, status, ms) instead of Fastify's two
 * lines, at info — or at debug for routine POS sync and polling, which would otherwise bury everything else (a
 * demo chain of 14 terminals pushes several requests a second). Errors are logged by the error handler.
 */
export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const level = request.routeOptions.config.routine ? 'debug' : 'info';
    const q = request.url.indexOf('?');
    request.log[level]({ method: request.method, path: q === -1 ? request.url : request.url.slice(0, q), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request completed');
  });
}
