import type { FastifyInstance } from 'fastify';
import { Histogram, type Registry } from 'prom-client';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routine polling or sync of a POS plugin: its request line is logged at debug, not info. */
    routine?: boolean;
    /** The path holds personal data (a guest's phone): the line shows the route pattern instead. */
    personalPath?: boolean;
  }
}

/**
 * Request duration histogram at /metrics, and one line per request ("request completed": method, path without the query, status, ms) instead of Fastify's two
 * lines, at info — or at debug for routine POS sync and polling, which would otherwise bury everything else (a
 * demo chain of 14 terminals pushes several requests a second). Errors are logged by the error handler.
 */
export function installRequestLog(app: FastifyInstance, registry: Registry): void {
  const duration = new Histogram({
    name: 'delivery_http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // the route pattern (`/v1/orders/:id`), never the raw URL: ids would explode the label set
    duration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    const level = request.routeOptions.config.routine ? 'debug' : 'info';
    const q = request.url.indexOf('?');
    request.log[level](
      {
        method: request.method,
        path: request.routeOptions.config.personalPath ? request.routeOptions.url : q === -1 ? request.url : request.url.slice(0, q),
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request completed',
    );
  });
}
