import type { FastifyInstance } from 'fastify';
import { ErrorBody } from '../documents/documents.schemas.js';
import { HealthSchema } from './health.schemas.js';
import type { HealthReport } from './health.service.js';

/** Spec: GET /api/v1/health — no authentication; 200 when all components work, 503 on degradation. */
export function healthRoutes(app: FastifyInstance, check: () => Promise<HealthReport>): void {
  app.get(
    '/api/v1/health',
    {
      schema: {
        tags: ['health'],
        operationId: 'getHealth',
        summary: 'Service health (no authentication)',
        // Public (Spec: "All endpoints except GET /api/v1/health need X-API-Key"): overrides the document's default security.
        security: [],
        response: {
          200: { ...HealthSchema, description: 'all components work' },
          // The one 4xx of a route without parameters: the HTTP parser refused the request (framework-errors.ts).
          400: { ...ErrorBody, description: 'BAD_REQUEST: the request is not valid HTTP' },
          503: { ...HealthSchema, description: 'a component is degraded' },
        },
      },
    },
    async (_request, reply) => {
      const report = await check();
      return reply.status(report.status === 'ok' ? 200 : 503).send(report);
    },
  );
}
