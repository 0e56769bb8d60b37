import type { FastifyInstance } from 'fastify';
import { ACTION_LABELS } from './admin-audit.js';
import { warningsByField } from './admin-documents.service.js';
import type { AdminServices } from './admin.module.js';
import { actor, render } from '@app/admin-web';
import { ApiError } from '../errors.js';

/** Why the API refused a re-send, in the panel's words (the codes of POST …/callbacks/resend). */
const RESEND_REFUSED: Record<string, string> = {
  CALLBACK_IN_PROGRESS: 'Обратный вызов ещё доставляется; повторить можно после окончания текущей серии попыток.',
  CALLBACK_NOT_CONFIGURED: 'Документ загружен без адреса обратного вызова.',
  DOCUMENT_NOT_READY: 'Документ ещё обрабатывается; обратный вызов отправится, когда обработка закончится.',
};

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
    const q = req.query as Record<string, unknown>;
    const notice =
      q.done === 'retried'
        ? 'Документ снова в очереди на распознавание.'
        : q.done === 'resent'
          ? 'Обратный вызов поставлен на повторную отправку.'
          : null;
    const refused = typeof q.refused === 'string' ? (RESEND_REFUSED[q.refused] ?? null) : null;
    return render(reply, 'document', { section: 'documents', doc, warn: warningsByField(doc.warnings), callback, notice, error: refused });
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

  // A new attempt series of the completion callback, the same delivery as the API's POST …/callbacks/resend.
  app.post('/documents/:id/callback-resend', { preHandler: app.csrfProtection }, async (req, reply) => {
    const doc = await s.documents.get((req.params as { id: string }).id);
    try {
      await s.resendCallback(doc.apiKeyId, doc.id);
    } catch (err) {
      if (err instanceof ApiError && err.code in RESEND_REFUSED) return reply.redirect(`/admin/documents/${doc.id}?refused=${err.code}`, 303);
      throw err;
    }
    await s.audit.record(actor(req), 'callback.resend', doc.id, `ключ «${doc.keyName}»${doc.clientRef ? `, ${doc.clientRef}` : ''}`);
    return reply.redirect(`/admin/documents/${doc.id}?done=resent`, 303);
  });

  app.get('/documents/:id/pages/:n', async (req, reply) => {
    const { id, n } = req.params as { id: string; n: string };
    const page = await s.documents.page(id, /^\d{1,2}$/.test(n) ? Number(n) : 0);
    // no-store: a scan of a document must not stay in the browser's cache after sign-out.
    return reply.header('Cache-Control', 'no-store').type(page.type).send(page.bytes);
  });

  app.get('/documents/:id/source.xml', async (req, reply) => {
    const { id } = req.params as { id: string };
    const file = await s.documents.sourceXml(id);
    // no-store: the file is the counterparty's document, as the page images are; it must not stay in a cache.
    return reply
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="${id}-source.xml"`)
      .type(file.type)
      .send(file.bytes);
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
