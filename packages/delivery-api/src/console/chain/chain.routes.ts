import { readFileSync } from 'node:fs';
import { AdminError, actor, formErrors, render, requireRole } from '@app/admin-web';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConsoleCore } from '../console.module.js';
import type { ConsoleSection } from '../console-section.js';
import { CONSOLE_PREFIX } from '../console-section.js';
import { ageSeconds, type ConsoleChainService, type IssuedCredential, type MapResolve } from './console-chain.service.js';

declare module '@fastify/secure-session' {
  interface SessionData {
    /** A credential just issued, until the page after the redirect has shown its secret once. */
    issuedCredential: IssuedCredential & { kind: 'partner' | 'pos' };
  }
}

const C = `${CONSOLE_PREFIX}/chain`;
/** The page script (map clicks, sync polling); served by the console, as the CSP allows only our own scripts. */
const SCRIPT = readFileSync(new URL('../public/console-chain.js', import.meta.url), 'utf8');
/** How often a point page refreshes its sync state: the script polls the fragment; without JS the page reloads. */
export const SYNC_REFRESH_SECONDS = 10;

type Body = Record<string, string | string[] | undefined>;
type Deps = { core: ConsoleCore; chain: ConsoleChainService };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));
const query = (req: FastifyRequest) => (req.query ?? {}) as Record<string, string | undefined>;

/**
 * The chain section (admin only; docs/console-webhooks-chain.md, Chain): points with schedule and POS
 * sync state (refreshing on its own), routes on/off, per-source switches, zones on an SVG map with resolve tried at
 * a location, partner and POS credentials (issued secret shown once; revoke behind a confirmation). Every change
 * is written to the audit log.
 */
export function chainSection(d: Deps): ConsoleSection {
  return {
    nav: { href: C, label: 'Сеть', section: 'chain', role: 'admin' },
    summary: 'Точки, расписание, связь с кассой и синхронизация меню; маршруты, зоны на карте, ключи партнёров и касс, переключатели.',
    routes: (app) => routes(app, d),
  };
}

function routes(app: FastifyInstance, d: Deps): void {
  const s = d.chain;
  const admin = requireRole('admin');
  const audit = (req: FastifyRequest, action: string, target: string, detail = '') => d.core.audit.record(actor(req), action, target, detail);
  // Ages and liveness on the injected clock, for the templates.
  const sync = () => {
    const now = s.now();
    const age = (at: Date | null) => ageSeconds(now, at);
    return { now, age, ageText: (at: Date | null) => ageText(age(at)), alive: (at: Date | null) => s.alive(at) };
  };

  app.get(`/chain/console-chain.js`, admin, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'no-cache').send(SCRIPT),
  );

  app.get('/chain', admin, async (req, reply) => {
    const tenant = await s.tenant(query(req).tenant);
    const q = query(req);
    const notice =
      q.done === 'route' ? 'Маршрут изменён.' : q.done === 'switch' ? 'Переключатель изменён; ключи источника увидят его в течение 5 секунд.' : null;
    return render(reply, 'chain', {
      section: 'chain',
      tenant,
      tenants: await s.tenants(),
      points: await s.points(tenant.id),
      switches: await s.switches(tenant.id),
      sync: sync(),
      notice,
    });
  });

  const pointData = async (req: FastifyRequest) => {
    const tenant = await s.tenant(query(req).tenant);
    return { tenant, point: await s.point(tenant.id, (req.params as { id: string }).id) };
  };
  app.get(`/chain/points/:id`, admin, async (req, reply) =>
    render(reply, 'chain-point', {
      section: 'chain',
      ...(await pointData(req)),
      sync: sync(),
      refresh: SYNC_REFRESH_SECONDS,
      script: `${C}/console-chain.js`,
    }),
  );
  // The fragment the point page's script polls: the same sync table, no layout.
  app.get(`/chain/points/:id/sync`, admin, async (req, reply) => {
    const { point } = await pointData(req);
    return reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').view('chain-sync', { point, sync: sync() });
  });

  app.post(`/chain/routes`, { preHandler: app.csrfProtection }, async (req, reply) => {
    const b = req.body as Body;
    const tenant = await s.tenant(one(b.tenant));
    const active = one(b.active) === 'true';
    await s.setRouteActive(tenant.id, one(b.source), one(b.point), active);
    await audit(req, active ? 'route.enable' : 'route.disable', `${tenant.id}/${one(b.source)}/${one(b.point)}`);
    const back =
      one(b.back) === 'point'
        ? `${C}/points/${encodeURIComponent(one(b.point))}?tenant=${encodeURIComponent(tenant.id)}&done=route`
        : `${C}?tenant=${encodeURIComponent(tenant.id)}&done=route`;
    return reply.redirect(back, 303);
  });

  app.post(`/chain/switches`, { preHandler: app.csrfProtection }, async (req, reply) => {
    const b = req.body as Body;
    const tenant = await s.tenant(one(b.tenant));
    const on = one(b.on) === 'true';
    try {
      const now = await s.setSwitch(tenant.id, one(b.source), one(b.feature), on);
      await audit(
        req,
        on ? 'source.feature-on' : 'source.feature-off',
        `${tenant.id}/${one(b.source)}`,
        `${one(b.feature)}; включены: ${now.join(', ') || 'нет'}`,
      );
    } catch (err) {
      if (!(err instanceof AdminError) || err.status !== 422) throw err;
      throw new AdminError('VALIDATION', err.message);
    }
    return reply.redirect(`${C}?tenant=${encodeURIComponent(tenant.id)}&done=switch`, 303);
  });

  // Resolve is a read: a GET form, so the map page works without JS and without a token.
  app.get(`/chain/zones`, admin, async (req, reply) => {
    const q = query(req);
    const tenant = await s.tenant(q.tenant);
    const sources = (await s.switches(tenant.id)).map((x) => x.source);
    const form = {
      source: q.source ?? sources[0] ?? '',
      lat: q.lat ?? '',
      lon: q.lon ?? '',
      deliveryType: q.deliveryType === 'pickup' ? 'pickup' : 'courier',
    };
    let tried: MapResolve | null = null;
    let errors = {};
    if (q.lat !== undefined || q.lon !== undefined) {
      try {
        tried = await s.resolve(tenant.id, form);
      } catch (err) {
        if (!(err instanceof AdminError) || err.status !== 422) throw err;
        errors = formErrors(err);
      }
    }
    const map = await s.zoneMap(tenant.id, tried ? { lat: tried.lat, lon: tried.lon } : undefined);
    return render(
      reply,
      'chain-zones',
      { section: 'chain', tenant, sources, form, tried, map, script: `${C}/console-chain.js`, ...errors },
      Object.keys(errors).length ? 422 : 200,
    );
  });

  const credentialsPage = async (req: FastifyRequest, tenantId: string | undefined, extra: Record<string, unknown> = {}) => {
    const tenant = await s.tenant(tenantId);
    const issued = req.session.get('issuedCredential');
    if (issued) req.session.set('issuedCredential', undefined as never);
    return {
      section: 'chain',
      tenant,
      credentials: await s.credentials(tenant.id),
      points: await s.points(tenant.id),
      sources: (await s.switches(tenant.id)).map((x) => x.source),
      issued: issued ?? null,
      notice: query(req).done === 'revoked' ? 'Ключ отозван: запросы с ним получают 401 в течение 5 секунд.' : null,
      form: { source: '', points: '', point: '' },
      ...extra,
    };
  };
  app.get(`/chain/credentials`, admin, async (req, reply) => render(reply, 'chain-credentials', await credentialsPage(req, query(req).tenant)));

  for (const kind of ['partner', 'pos'] as const) {
    app.post(`/chain/credentials/${kind}`, { preHandler: app.csrfProtection }, async (req, reply) => {
      const b = req.body as Body;
      const tenant = await s.tenant(one(b.tenant));
      try {
        const issued =
          kind === 'partner'
            ? await s.issuePartner(tenant.id, { source: one(b.source), points: one(b.points) })
            : await s.issuePos(tenant.id, { point: one(b.point), source: one(b.source) });
        await audit(
          req,
          'credential.issue',
          issued.apiKey,
          kind === 'partner' ? `partner ${one(b.source)}: ${one(b.points)}` : `pos: точка ${one(b.point)}`,
        );
        req.session.set('issuedCredential', { ...issued, kind });
        return reply.redirect(`${C}/credentials?tenant=${encodeURIComponent(tenant.id)}&issued=1`, 303);
      } catch (err) {
        if (!(err instanceof AdminError) || err.status !== 422) throw err;
        const form = { source: one(b.source), points: one(b.points), point: one(b.point) };
        return render(reply, 'chain-credentials', await credentialsPage(req, tenant.id, { ...formErrors(err), form, formKind: kind }), err.status);
      }
    });
  }

  app.get(`/chain/credentials/:key/revoke`, admin, async (req, reply) => {
    const tenant = await s.tenant(query(req).tenant);
    const key = (req.params as { key: string }).key;
    const c = (await s.credentials(tenant.id)).find((x) => x.api_key === key && x.revoked_at === null);
    if (!c) throw new AdminError('NOT_FOUND', 'Действующего ключа с таким именем нет.');
    return render(reply, 'chain-revoke', { section: 'chain', tenant, credential: c });
  });
  app.post(`/chain/credentials/:key/revoke`, { preHandler: app.csrfProtection }, async (req, reply) => {
    const tenant = await s.tenant(one((req.body as Body).tenant));
    const c = await s.revoke(tenant.id, (req.params as { key: string }).key);
    await audit(req, 'credential.revoke', c.api_key, c.kind === 'partner' ? `partner ${c.source}` : 'pos');
    return reply.redirect(`${C}/credentials?tenant=${encodeURIComponent(tenant.id)}&done=revoked`, 303);
  });
}

/** An age in seconds as people read it: «45 с», «12 мин», «5 ч», «3 дн»; «—» for never. */
export function ageText(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 120) return `${seconds} с`;
  if (seconds < 2 * 3600) return `${Math.floor(seconds / 60)} мин`;
  if (seconds < 2 * 86400) return `${Math.floor(seconds / 3600)} ч`;
  return `${Math.floor(seconds / 86400)} дн`;
}
