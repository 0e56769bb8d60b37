import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '@app/shared';
import { errorResponses } from '../http/schemas.js';

/**
 * Spec: Health — liveness at /health/live and bare /health; readiness checks the database. No signature.
 * 400 only for a query the text guard refuses (a NUL or a lone surrogate).
 */
export function healthRoutes(app: FastifyInstance, db: Pick<Db, 'ping'>): void {
  const live = (operationId: string, summary: string) => ({
    schema: {
      operationId,
      summary,
      security: [],
      tags: ['health'],
      response: { 200: Type.Object({ status: Type.Literal('ok') }), ...errorResponses(['invalid_request']) },
    },
    handler: async () => ({ status: 'ok' as const }),
  });
  app.get('/health/live', live('getLiveness', 'Liveness: the process answers'));
  app.get('/health', live('getHealth', 'Liveness (same as /health/live)'));
  app.get('/health/ready', {
    schema: {
      operationId: 'getReadiness',
      summary: 'Readiness: the database answers',
      security: [],
      tags: ['health'],
      response: {
        200: Type.Object({ status: Type.Literal('ready') }),
        503: Type.Object({ status: Type.Literal('unavailable') }),
        ...errorResponses(['invalid_request']),
      },
    },
    handler: async (req, reply) => {
      try {
        await db.ping();
        return { status: 'ready' as const };
      } catch (err) {
        req.log.warn({ err }, 'database not ready');
        return reply.status(503).send({ status: 'unavailable' as const });
      }
    },
  });
}
