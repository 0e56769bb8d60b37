import type { FastifyInstance } from 'fastify';
import { AdminError } from '@app/admin-web';
import { EDO_LABELS } from './admin-edo.service.js';
import type { AdminServices } from './admin.module.js';
import { actor, formErrors, render } from '@app/admin-web';

/** The e-document connection section (docs/admin-panel.md): the form, save, and "Check connection". */
export function edoRoutes(app: FastifyInstance, s: AdminServices): void {
  const page = async (extra: Record<string, unknown> = {}) => {
    const { view, undecryptable } = await s.edo.show();
    const form = { clientId: view?.clientId ?? '', boxId: view?.boxId ?? '', issuerUrl: view?.issuerUrl ?? '', apiBaseUrl: view?.apiBaseUrl ?? '' };
    const token = view ? await s.edo.tokenStatus() : null;
    return { section: 'edo', conn: view, undecryptable, token, labels: EDO_LABELS, form, check: null, ...extra };
  };

  app.get('/edo', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const notice =
      q.saved === '1'
        ? 'Подключение сохранено. Нажмите «Проверить подключение».'
        : q.done === 'disconnected'
          ? 'Подключение к Диадоку удалено.'
          : null;
    return render(reply, 'edo', await page({ notice }));
  });

  // The operator message of an imported document (docs/formalized-upload.md): its card, linked from the document page.
  app.get('/edo/documents/:messageId/:entityId', async (req, reply) => {
    const { messageId, entityId } = req.params as { messageId: string; entityId: string };
    const { card, error } = await s.edo.message(messageId, entityId);
    return render(reply, 'edo-document', { section: 'edo', messageId, entityId, card, error }, card ? 200 : 404);
  });

  app.get('/edo/disconnect', async (_req, reply) => render(reply, 'edo-disconnect', { section: 'edo' }));
  app.post('/edo/disconnect', { preHandler: app.csrfProtection }, async (req, reply) => {
    const { view } = await s.edo.show();
    await s.edo.disconnect();
    await s.audit.record(actor(req), 'edo.disconnect', view?.boxId ?? '');
    return reply.redirect('/admin/edo?done=disconnected', 303);
  });

  app.post('/edo', { preHandler: app.csrfProtection }, async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    try {
      const saved = await s.edo.save(body);
      const replaced = (['clientSecret', 'refreshToken'] as const).filter((k) => typeof body[k] === 'string' && (body[k] as string).trim());
      await s.audit.record(
        actor(req),
        'edo.save',
        saved.boxId,
        `${saved.issuerUrl}, ${saved.apiBaseUrl}${replaced.length ? `; заменены: ${replaced.join(', ')}` : ''}`,
      );
      return reply.redirect('/admin/edo?saved=1', 303);
    } catch (err) {
      if (!(err instanceof AdminError)) throw err;
      const str = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : '');
      // Typed secrets are never echoed back into the page.
      const form = { clientId: str('clientId'), boxId: str('boxId'), issuerUrl: str('issuerUrl'), apiBaseUrl: str('apiBaseUrl') };
      return render(reply, 'edo', await page({ ...formErrors(err), form }), err.status);
    }
  });

  app.post('/edo/check', { preHandler: app.csrfProtection }, async (_req, reply) => {
    return render(reply, 'edo', await page({ check: await s.edo.check() }));
  });
}
