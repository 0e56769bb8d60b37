import type { FastifyInstance } from 'fastify';
import { AdminError } from './admin-errors.js';
import { EDO_LABELS } from './admin-edo.service.js';
import type { AdminServices } from './admin.module.js';
import { formErrors, render } from './admin-render.js';

/** The e-document connection section (issue 10, item 4): the form, save, and "Check connection". */
export function edoRoutes(app: FastifyInstance, s: AdminServices): void {
  const page = async (extra: Record<string, unknown> = {}) => {
    const { view, undecryptable } = await s.edo.show();
    const form = { clientId: view?.clientId ?? '', boxId: view?.boxId ?? '', issuerUrl: view?.issuerUrl ?? '', apiBaseUrl: view?.apiBaseUrl ?? '' };
    return { section: 'edo', conn: view, undecryptable, labels: EDO_LABELS, form, check: null, ...extra };
  };

  app.get('/edo', async (req, reply) => {
    const saved = (req.query as Record<string, unknown>).saved === '1';
    return render(reply, 'edo', await page({ notice: saved ? 'Подключение сохранено. Нажмите «Проверить подключение».' : null }));
  });

  app.post('/edo', { preHandler: app.csrfProtection }, async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    try {
      await s.edo.save(body);
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
