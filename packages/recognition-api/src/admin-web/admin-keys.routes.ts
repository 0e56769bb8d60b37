import type { FastifyInstance } from 'fastify';
import { API_SCOPES } from '../keys/keys.repo.js';
import { AdminError } from '@app/admin-web';
import { SCOPE_LABELS } from './admin-keys.service.js';
import type { AdminServices } from './admin.module.js';
import { actor, formErrors, render } from '@app/admin-web';

const scopeOptions = API_SCOPES.map((value) => ({ value, label: SCOPE_LABELS[value] }));

/** The API keys section (docs/admin-panel.md). Deactivation asks first on its own page, so it works without JS. */
export function keysRoutes(app: FastifyInstance, s: AdminServices): void {
  const page = async (extra: Record<string, unknown> = {}) => ({
    section: 'keys',
    keys: await s.keys.list(),
    scopeOptions,
    form: { name: '', scopes: ['recognition'] },
    created: null,
    rotated: null,
    ...extra,
  });

  app.get('/keys', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    // The key made by the POST that redirected here: shown on this one page, then gone from the session.
    const created = req.session.get('createdKey') ?? null;
    if (created) {
      req.session.set('createdKey', undefined as never);
      return render(reply, 'keys', await page({ created }));
    }
    const rotated = req.session.get('rotatedSecret') ?? null;
    if (rotated) {
      req.session.set('rotatedSecret', undefined as never);
      return render(reply, 'keys', await page({ rotated }));
    }
    const notice =
      q.done === 'deactivated'
        ? 'Ключ отключён: запросы с ним получают 401 INVALID_API_KEY.'
        : q.done === 'reactivated'
          ? 'Ключ снова действует.'
          : q.done === 'rescoped'
            ? 'Области доступа ключа изменены.'
            : null;
    return render(reply, 'keys', await page({ notice }));
  });

  app.post('/keys', { preHandler: app.csrfProtection }, async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    try {
      const created = await s.keys.create(body);
      await s.audit.record(actor(req), 'key.create', `${created.name} (${created.id})`, created.scopes.join(', '));
      // Post/Redirect/Get: a reload of the page that shows the key must not post the form (and make a key) again.
      // The key rides in the encrypted session cookie to the next GET only (no-store), then is never shown again.
      req.session.set('createdKey', created);
      return reply.redirect('/admin/keys?created=1', 303);
    } catch (err) {
      if (!(err instanceof AdminError)) throw err;
      const scopes = body.scopes === undefined ? [] : ([] as unknown[]).concat(body.scopes).map(String);
      return render(reply, 'keys', await page({ ...formErrors(err), form: { name: String(body.name ?? ''), scopes } }), err.status);
    }
  });

  const keyById = async (id: string) => {
    const key = (await s.keys.list()).find((k) => k.id === id);
    if (!key) throw new AdminError('NOT_FOUND', 'Такого ключа нет.');
    return key;
  };
  app.get('/keys/:id/scopes', async (req, reply) => {
    const key = await keyById((req.params as { id: string }).id);
    return render(reply, 'key-scopes', { section: 'keys', key, scopeOptions, scopes: key.scopes });
  });
  app.post('/keys/:id/scopes', { preHandler: app.csrfProtection }, async (req, reply) => {
    const { id } = req.params as { id: string };
    const body = (req.body ?? {}) as Record<string, unknown>;
    try {
      const scopes = await s.keys.setScopes(id, body.scopes);
      await s.audit.record(actor(req), 'key.scopes', `${(await keyById(id)).name} (${id})`, scopes.join(', '));
      return reply.redirect('/admin/keys?done=rescoped', 303);
    } catch (err) {
      if (!(err instanceof AdminError) || err.code !== 'VALIDATION') throw err;
      return render(reply, 'key-scopes', { section: 'keys', key: await keyById(id), scopeOptions, scopes: [], ...formErrors(err) }, err.status);
    }
  });

  app.get('/keys/:id/rotate-secret', async (req, reply) => {
    const key = await keyById((req.params as { id: string }).id);
    return render(reply, 'key-rotate', { section: 'keys', key });
  });
  app.post('/keys/:id/rotate-secret', { preHandler: app.csrfProtection }, async (req, reply) => {
    const key = await keyById((req.params as { id: string }).id);
    const secret = await s.keys.rotateCallbackSecret(key.id);
    await s.audit.record(actor(req), 'key.rotate-secret', `${key.name} (${key.id})`);
    // Shown once on the page the POST redirects to, like a new key (Post/Redirect/Get).
    req.session.set('rotatedSecret', { name: key.name, secret });
    return reply.redirect('/admin/keys?rotated=1', 303);
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
      await s.audit.record(actor(req), `key.${action}`, `${(await keyById(id)).name} (${id})`);
      return reply.redirect(`/admin/keys?done=${action}d`, 303);
    });
  }
}
