import { AdminError, actor, formErrors, render, requireRole } from '@app/admin-web';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConsoleCore } from '../console.module.js';
import type { ConsoleSection } from '../console-section.js';
import { CONSOLE_PREFIX } from '../console-section.js';
import type { ConsoleWebhooksService, RotatedSecret } from './console-webhooks.service.js';

declare module '@fastify/secure-session' {
  interface SessionData {
    /** A webhook secret just created or rotated, until the page after the redirect has shown it once. */
    webhookSecret: RotatedSecret;
  }
}

const W = `${CONSOLE_PREFIX}/webhooks`;
type Params = { tenant: string; source: string };
type Body = Record<string, string | string[] | undefined>;
const list = (v: string | string[] | undefined) => ([] as string[]).concat(v ?? []);
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));
const sourcePath = (p: Params) => `${W}/${encodeURIComponent(p.tenant)}/${encodeURIComponent(p.source)}`;

/**
 * The webhooks section (docs/console-webhooks-chain.md, Webhooks). Support and admin see every source's
 * endpoint, recent deliveries with their attempts, and replay dead ones (one, a selection, or since a time);
 * only admin changes the URL or rotates the secret. A new secret is shown once: it rides in the session to the
 * one GET after the POST (Post/Redirect/Get) and is then dropped. Every change is written to the audit log.
 */
export function webhooksSection(d: { core: ConsoleCore; webhooks: ConsoleWebhooksService }): ConsoleSection {
  return {
    nav: { href: W, label: 'Вебхуки', section: 'webhooks', role: 'support' },
    summary: 'Адреса вебхуков по источникам, последние доставки и ответы, повтор недоставленных; адрес и секрет (администратор).',
    routes: (app) => routes(app, d),
  };
}

function routes(app: FastifyInstance, d: { core: ConsoleCore; webhooks: ConsoleWebhooksService }): void {
  const s = d.webhooks;
  const audit = (req: FastifyRequest, action: string, target: string, detail = '') => d.core.audit.record(actor(req), action, target, detail);
  const support = requireRole('support');

  app.get('/webhooks', support, async (_req, reply) => render(reply, 'webhooks', { section: 'webhooks', sources: await s.overview() }));

  const sourcePage = async (req: FastifyRequest, extra: Record<string, unknown> = {}) => {
    const p = req.params as Params;
    const q = (req.query ?? {}) as Record<string, string | undefined>;
    const shown = req.session.get('webhookSecret');
    if (shown) req.session.set('webhookSecret', undefined as never);
    const notice =
      q.replayed !== undefined
        ? `Поставлено в очередь повторно: ${q.replayed}.${q.busy ? ` Сейчас отправляются, не тронуты: ${q.busy}.` : ''}${q.missing ? ` Не найдены: ${q.missing}.` : ''}`
        : q.done === 'url'
          ? 'Адрес сохранён; секрет прежний.'
          : null;
    return {
      section: 'webhooks',
      src: await s.sourceOf(p.tenant, p.source),
      dead: await s.dead(p.tenant, p.source),
      here: sourcePath(p),
      secret: shown && shown.tenantId === p.tenant && shown.source === p.source ? shown.secret : null,
      notice,
      form: { url: '', since: '' },
      ...extra,
    };
  };

  app.get(`/webhooks/:tenant/:source`, support, async (req, reply) => render(reply, 'webhooks-source', await sourcePage(req)));

  app.get(`/webhooks/deliveries/:id`, support, async (req, reply) => {
    const delivery = await s.delivery((req.params as { id: string }).id);
    return render(reply, 'webhook-delivery', {
      section: 'webhooks',
      delivery,
      here: sourcePath({ tenant: delivery.tenantId, source: delivery.source }),
    });
  });

  app.post(`/webhooks/:tenant/:source/replay`, { ...support, preHandler: app.csrfProtection }, async (req, reply) => {
    const p = req.params as Params;
    const ids = list((req.body as Body).ids);
    try {
      const r = await s.replay(ids);
      if (r.requeued.length) await audit(req, 'webhook.replay', `${p.tenant}/${p.source}`, r.requeued.join(', '));
      const q = new URLSearchParams({ replayed: String(r.requeued.length) });
      if (r.inFlight.length) q.set('busy', String(r.inFlight.length));
      if (r.missing.length) q.set('missing', String(r.missing.length));
      return reply.redirect(`${sourcePath(p)}?${q}`, 303);
    } catch (err) {
      if (!(err instanceof AdminError) || err.status !== 422) throw err;
      return render(reply, 'webhooks-source', await sourcePage(req, formErrors(err)), err.status);
    }
  });

  app.post(`/webhooks/:tenant/:source/replay-since`, { ...support, preHandler: app.csrfProtection }, async (req, reply) => {
    const p = req.params as Params;
    const since = one((req.body as Body).since);
    try {
      const n = await s.replayDeadSince(p.tenant, p.source, since);
      await audit(req, 'webhook.replay-since', `${p.tenant}/${p.source}`, `${since} UTC: ${n}`);
      return reply.redirect(`${sourcePath(p)}?replayed=${n}`, 303);
    } catch (err) {
      if (!(err instanceof AdminError) || err.status !== 422) throw err;
      return render(reply, 'webhooks-source', await sourcePage(req, { ...formErrors(err), form: { url: '', since } }), err.status);
    }
  });

  // Admin only (the plugin's default for a POST is the top role).
  app.post(`/webhooks/:tenant/:source/url`, { preHandler: app.csrfProtection }, async (req, reply) => {
    const p = req.params as Params;
    const url = one((req.body as Body).url);
    try {
      const created = await s.setUrl(p.tenant, p.source, url);
      await audit(req, 'webhook.url', `${p.tenant}/${p.source}`, created ? `${url} (новый секрет)` : url);
      if (created) req.session.set('webhookSecret', created);
      return reply.redirect(`${sourcePath(p)}${created ? '?secret=1' : '?done=url'}`, 303);
    } catch (err) {
      if (!(err instanceof AdminError) || err.status !== 422) throw err;
      return render(reply, 'webhooks-source', await sourcePage(req, { ...formErrors(err), form: { url, since: '' } }), err.status);
    }
  });

  app.get(`/webhooks/:tenant/:source/rotate`, requireRole('admin'), async (req, reply) => {
    const p = req.params as Params;
    return render(reply, 'webhook-rotate', { section: 'webhooks', src: await s.sourceOf(p.tenant, p.source), here: sourcePath(p) });
  });
  app.post(`/webhooks/:tenant/:source/rotate`, { preHandler: app.csrfProtection }, async (req, reply) => {
    const p = req.params as Params;
    const rotated = await s.rotateSecret(p.tenant, p.source);
    await audit(req, 'webhook.rotate-secret', `${p.tenant}/${p.source}`);
    req.session.set('webhookSecret', rotated);
    return reply.redirect(`${sourcePath(p)}?secret=1`, 303);
  });
}
