import type { FastifyInstance } from 'fastify';
import { warningsByField } from './admin-documents.service.js';
import type { AdminServices } from './admin.module.js';
import { render } from './admin-render.js';

/** The documents section (issue 10, item 5): list, one document, its page images, exports. */
export function documentsRoutes(app: FastifyInstance, s: AdminServices): void {
  app.get('/documents', async (req, reply) => {
    const list = await s.documents.list(req.query as Record<string, unknown>);
    const keys = await s.keyNames.names();
    return render(reply, 'documents', { section: 'documents', ...list, keys }, list.errors.length ? 422 : 200);
  });

  app.get('/documents/:id', async (req, reply) => {
    const doc = await s.documents.get((req.params as { id: string }).id);
    const callback = await s.callbacks.history(doc.id);
    return render(reply, 'document', { section: 'documents', doc, warn: warningsByField(doc.warnings), callback });
  });

  app.get('/documents/:id/pages/:n', async (req, reply) => {
    const { id, n } = req.params as { id: string; n: string };
    const page = await s.documents.page(id, /^\d{1,2}$/.test(n) ? Number(n) : 0);
    return reply.header('Cache-Control', 'private, max-age=300').type(page.type).send(page.bytes);
  });

  app.get('/documents/:id/export', async (req, reply) => {
    const { id } = req.params as { id: string };
    const format = String((req.query as Record<string, unknown>).format ?? 'json');
    const body = await s.documents.export(id, format);
    return reply
      .header('Content-Disposition', `attachment; filename="${id}-${format === 'accounting' ? 'accounting' : 'data'}.json"`)
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(body, null, 2));
  });
}
