import type { FastifyInstance, FastifySchema } from 'fastify';

/** What {@link installMetricsEndpoint} needs of a prom-client `Registry`. */
export interface MetricsRegistry {
  readonly contentType: string;
  metrics(): Promise<string>;
}

/**
 * `GET /metrics` of a service: the registry in Prometheus text format, unauthenticated like health, hidden from the
 * OpenAPI document. Both services serve their metrics through this.
 */
export function installMetricsEndpoint(app: FastifyInstance, registry: MetricsRegistry): void {
  // `hide` is @fastify/swagger's addition to the route schema; this package does not load the plugin's types.
  const hidden = { hide: true } as FastifySchema;
  app.get('/metrics', { schema: hidden }, async (_req, reply) => reply.type(registry.contentType).send(await registry.metrics()));
}
