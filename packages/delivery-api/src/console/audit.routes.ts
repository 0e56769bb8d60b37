import { render, requireRole } from '@app/admin-web';
import type { FastifyInstance } from 'fastify';
import type { ConsoleCore } from './console.module.js';

/** The audit log (`/console/audit`, admins only): the newest 200 entries. */
export function auditRoutes(app: FastifyInstance, core: ConsoleCore): void {
  app.get('/audit', requireRole('admin'), async (_req, reply) => render(reply, 'audit', { section: 'audit', entries: await core.audit.latest(200) }));
}
