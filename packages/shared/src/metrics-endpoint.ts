import type { FastifyInstance } from 'fastify';

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
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => reply.type(registry.contentType).send(await registry.metrics()));
}
