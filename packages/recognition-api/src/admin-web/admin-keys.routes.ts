import type { FastifyInstance } from 'fastify';
import { API_SCOPES } from '../keys/keys.repo.js';
import { AdminError } from './admin-errors.js';
import { SCOPE_LABELS } from './admin-keys.service.js';
import type { AdminServices } from './admin.module.js';
import { formErrors, render } from './admin-render.js';

const scopeOptions = API_SCOPES.map((value) => ({ value, label: SCOPE_LABELS[value] }));

/** The API keys section (issue 10, item 3). Deactivation asks first on its own page, so it works without JS. */
export function keysRoutes(app: FastifyInstance, s: AdminServices): void {
  const page = async (extra: Record<string, unknown> = {}) => ({
    section: 'keys',
    keys: await s.keys.list(),
    scopeOptions,
    form: { name: '', scopes: ['recognition'] },
    created: null,
    ...extra,
  });

  app.get('/keys', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const notice =
      q.done === 'deactivated'
        ? 'Ключ отключён: запросы с ним получают 401 INVALID_API_KEY.'
        : q.done === 'reactivated'
          ? 'Ключ снова действует.'
          : null;
    return render(reply, 'keys', await page({ notice }));
  });

  app.post('/keys', { preHandler: app.csrfProtection }, async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    try {
      const created = await s.keys.create(body);
      // Rendered, not redirected: the key exists only in this answer (no-store) and is never shown again.
      return render(reply, 'keys', await page({ created }), 201);
    } catch (err) {
      if (!(err instanceof AdminError)) throw err;
      const scopes = body.scopes === undefined ? [] : ([] as unknown[]).concat(body.scopes).map(String);
      return render(reply, 'keys', await page({ ...formErrors(err), form: { name: String(body.name ?? ''), scopes } }), err.status);
    }
  });

  for (const action of ['deactivate', 'reactivate'] as const) {
    app.get(`/keys/:id/${action}`, async (req, reply) => {
      const { id } = req.params as { id: string };
      const key = (await s.keys.list()).find((k) => k.id === id && (action === 'deactivate') === !k.deactivatedAt);
      if (!key) throw new AdminError('NOT_FOUND', 'Такого ключа нет или он уже в этом состоянии.');
      return render(reply, 'key-confirm', { section: 'keys', key, action });
    });
    app.post(`/keys/:id/${action}`, { preHandler: app.csrfProtection }, async (req, reply) => {
      const { id } = req.params as { id: string };
      await s.keys[action](id);
      return reply.redirect(`/admin/keys?done=${action}d`, 303);
    });
  }
}
