import type { FastifyInstance } from 'fastify';
import type { HealthReport } from './health.service.js';

/** Spec: GET /api/v1/health — no authentication; 200 when all components work, 503 on degradation. */
export function healthRoutes(app: FastifyInstance, check: () => Promise<HealthReport>): void {
  app.get('/api/v1/health', { schema: { tags: ['health'] } }, async (_request, reply) => {
    const report = await check();
    return reply.status(report.status === 'ok' ? 200 : 503).send(report);
  });
}
