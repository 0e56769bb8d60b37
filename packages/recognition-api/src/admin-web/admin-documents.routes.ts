import type { FastifyInstance } from 'fastify';
import { ACTION_LABELS } from './admin-audit.js';
import { warningsByField } from './admin-documents.service.js';
import type { AdminServices } from './admin.module.js';
import { actor, render } from '@app/admin-web';

/** The documents section (docs/admin-panel.md): list, one document, its page images, exports. */
export function documentsRoutes(app: FastifyInstance, s: AdminServices): void {
  app.get('/documents', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const list = await s.documents.list(q);
    const keys = await s.keyNames.names();
    const notice = q.done === 'deleted' ? 'Документ и его файлы удалены.' : null;
    return render(reply, 'documents', { section: 'documents', ...list, keys, notice }, list.errors.length ? 422 : 200);
  });

  app.get('/documents/:id', async (req, reply) => {
    const doc = await s.documents.get((req.params as { id: string }).id);
    const callback = await s.callbacks.history(doc.id);
    const notice = (req.query as Record<string, unknown>).done === 'retried' ? 'Документ снова в очереди на распознавание.' : null;
    return render(reply, 'document', { section: 'documents', doc, warn: warningsByField(doc.warnings), callback, notice });
  });

  app.get('/audit', async (_req, reply) => render(reply, 'audit', { section: 'audit', entries: await s.audit.latest(), labels: ACTION_LABELS }));

  app.get('/documents/:id/delete', async (req, reply) => {
    const doc = await s.documents.get((req.params as { id: string }).id);
    return render(reply, 'document-delete', { section: 'documents', doc });
  });
  app.post('/documents/:id/delete', { preHandler: app.csrfProtection }, async (req, reply) => {
    const doc = await s.documents.get((req.params as { id: string }).id);
    await s.documents.remove(doc.id);
    await s.audit.record(actor(req), 'document.delete', doc.id, `ключ «${doc.keyName}»${doc.clientRef ? `, ${doc.clientRef}` : ''}`);
    return reply.redirect('/admin/documents?done=deleted', 303);
  });

  app.post('/documents/:id/retry', { preHandler: app.csrfProtection }, async (req, reply) => {
    const doc = await s.documents.retry((req.params as { id: string }).id);
    await s.audit.record(actor(req), 'document.retry', doc.id, `ключ «${doc.keyName}»${doc.clientRef ? `, ${doc.clientRef}` : ''}`);
    return reply.redirect(`/admin/documents/${doc.id}?done=retried`, 303);
  });

  app.get('/documents/:id/pages/:n', async (req, reply) => {
    const { id, n } = req.params as { id: string; n: string };
    const page = await s.documents.page(id, /^\d{1,2}$/.test(n) ? Number(n) : 0);
    // no-store: a scan of a document must not stay in the browser's cache after sign-out.
    return reply.header('Cache-Control', 'no-store').type(page.type).send(page.bytes);
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
