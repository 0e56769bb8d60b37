import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '@app/shared';

/** Spec: Health — liveness at /health/live and bare /health; readiness checks the database. No signature. */
export function healthRoutes(app: FastifyInstance, db: Pick<Db, 'ping'>): void {
  const live = {
    schema: { tags: ['health'], response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
    handler: async () => ({ status: 'ok' as const }),
  };
  app.get('/health/live', live);
  app.get('/health', live);
  app.get('/health/ready', {
    schema: {
      tags: ['health'],
      response: { 200: Type.Object({ status: Type.Literal('ready') }), 503: Type.Object({ status: Type.Literal('unavailable') }) },
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
