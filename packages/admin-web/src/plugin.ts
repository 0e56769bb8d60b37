/// <reference types="@fastify/csrf-protection" preserve="true" />
/// <reference types="@fastify/secure-session" preserve="true" />
/// <reference types="@fastify/view" preserve="true" />
import type { FastifyInstance, FastifyRequest } from 'fastify';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import secureSession from '@fastify/secure-session';
import fastifyStatic from '@fastify/static';
import view from '@fastify/view';
import type { Clock } from '@app/shared';
import { accountRoutes } from './account.routes.js';
import { AdminError } from './admin-errors.js';
import { authRoutes } from './auth.routes.js';
import { ADMIN_ROLES, type AdminRole } from './auth.service.js';
import { clockStore } from './clock-store.js';
import type { AdminWebContext, PanelContext } from './context.js';
import { baseViewHelpers } from './format.js';
import { render } from './render.js';
import { CSP, cookieIsSecure } from './security.js';
import { usersRoutes } from './users.routes.js';
import { ADMIN_WEB_PUBLIC, ADMIN_WEB_VIEWS, layeredEta } from './views.js';

declare module '@fastify/secure-session' {
  interface SessionData {
    /** Id of the session row; absent before sign-in. */
    sid: string;
    _csrf: string;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user (set by the session guard). */
    adminUser: string;
    /** The signed-in user's role (read from the account on every request). */
    adminRole: AdminRole | '';
    /** Whether the signed-in user's role is `role` or a more privileged one of the service's list (false before sign-in). */
    adminAllows: (role: AdminRole) => boolean;
    /** The signed-in user holds the top role (the pages show every form). */
    adminCanEdit: boolean;
  }
  interface FastifyContextConfig {
    /** Reachable without a session (sign-in page). */
    adminPublic?: boolean;
    /** A POST any role may make (sign-out, one's own password); every other POST needs the top role by default. */
    adminAnyRole?: boolean;
    /**
     * The least role this route needs (any method), e.g. `support` for an order action or `admin` for an admin-only
     * page; a weaker role gets 403. Default: any role for GET/HEAD, the top role for other methods. See requireRole().
     */
    adminRole?: AdminRole;
  }
}

/**
 * Route options that admit only `role` and the roles above it, e.g.
 * `app.get('/audit', requireRole('admin'), handler)` or `app.post('/orders/:id/reject', { ...requireRole('support'), preHandler: app.csrfProtection }, h)`.
 */
export const requireRole = (role: AdminRole): { config: { adminRole: AdminRole } } => ({ config: { adminRole: role } });

/** `role` is `needed` or above it in `roles` (most privileged first); unknown roles allow nothing. */
export const roleAllows = (roles: readonly string[], role: string, needed: string): boolean => {
  const have = roles.indexOf(role);
  const need = roles.indexOf(needed);
  return have >= 0 && need >= 0 && have <= need;
};

/** One entry of the panel's top navigation. */
export interface NavItem {
  href: string;
  label: string;
  /** Matched against the page's `section` to mark the current entry. */
  section: string;
  /** Shown only to this role and the roles above it (default every role). */
  role?: AdminRole;
}

/** What a service gives the plumbing. The panel is mounted at `prefix` (default `/admin`). */
export interface AdminWebOptions extends AdminWebContext {
  clock: Clock;
  /** The service's own templates, looked up before the package's (layout, login, error, account, users). */
  views: string;
  /** Extra helpers for `it.h`, beside date, money and role formatting. */
  helpers?: Record<string, unknown>;
  /** The product name in the header. */
  brand: string;
  /** The service's sections; the plumbing appends "Пользователи". */
  nav: NavItem[];
  /** Where the panel is registered (the Fastify prefix, the cookie path and every link); default `/admin`. */
  prefix?: string;
  /** The service's roles, most privileged first; default `admin`, `viewer`. The first manages accounts. */
  roles?: readonly string[];
  /** The roles' names in the interface (default admin/viewer labels). */
  roleLabels?: Record<string, string>;
  /** The least role that sees the users page (default: any role; creating and changing accounts needs the top role). */
  usersRole?: AdminRole;
  /** The panel's name in the page titles and header; default `Панель администратора`. */
  panelName?: string;
  /** The text of a 403 for a role that may not do this; default the recognition panel's viewer text. */
  forbiddenText?: string;
}

/**
 * The plumbing of a server-rendered administration panel, registered at `opts.prefix` (default `/admin`): encrypted HttpOnly
 * SameSite=Strict session cookie (`@fastify/secure-session`) whose id names a server-side session row, CSRF tokens
 * on every POST (`@fastify/csrf-protection`, form field only), sign-in rate limiting per address (`@fastify/rate-limit`
 * on the injected clock) plus the per-name lockout of the auth service, Eta views (the service's, then the layout and
 * pages of this package), the stylesheet and script (`@fastify/static`), a Content-Security-Policy and no-store on
 * every page. Every route but sign-in and the assets needs a live session; every POST but sign-out and one's own
 * password needs the top role of `roles` (403 for a viewer), unless the route names its least role (`adminRole` in
 * its config, {@link requireRole}); a GET with `adminRole` is refused to weaker roles too. Adds the sign-in, account and users routes; the service adds
 * its sections after this resolves.
 */
export async function installAdminWeb(app: FastifyInstance, opts: AdminWebOptions): Promise<void> {
  const { settings } = opts;
  const base = opts.prefix ?? '/admin';
  const roles = opts.roles ?? ADMIN_ROLES;
  const top = roles[0] as string;
  const lowest = roles[roles.length - 1] as string;
  const ctx: PanelContext = { ...opts, base, roles, usersRole: opts.usersRole ?? lowest };
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(secureSession, {
    key: settings.sessionKey,
    cookieName: `${base.replace(/\W/g, '')}_session`,
    // The session row decides expiry (injected clock); the cookie's own limit is only a backstop.
    expiry: Math.ceil(settings.absoluteMs / 1000) + 60,
    cookie: { path: base, httpOnly: true, sameSite: 'strict', secure: settings.cookieSecure },
  });
  // The cookie's Secure flag per request: https is read through the app's trustProxy (request.protocol).
  app.addHook('onRequest', async (request) => {
    request.session?.options({ secure: cookieIsSecure(settings.cookieSecure, request.protocol, request.hostname) });
  });
  await app.register(csrf, {
    sessionPlugin: '@fastify/secure-session',
    // Only the form field: a token in a URL would leak through logs and Referer.
    getToken: (req: FastifyRequest) => (req.body as Record<string, unknown> | undefined)?._csrf as string | undefined,
  });
  await app.register(rateLimit, { global: false, store: clockStore(opts.clock) });
  const nav: NavItem[] = [...opts.nav, { href: `${base}/users`, label: 'Пользователи', section: 'users', role: ctx.usersRole }];
  await app.register(view, {
    engine: { eta: layeredEta([opts.views, ADMIN_WEB_VIEWS]) },
    root: opts.views,
    viewExt: 'eta',
    defaultContext: {
      h: { ...baseViewHelpers, ...(opts.roleLabels ? { role: (r: string) => opts.roleLabels?.[r] ?? r } : {}), ...opts.helpers },
      brand: opts.brand,
      nav,
      home: opts.home,
      base,
      panelName: opts.panelName ?? 'Панель администратора',
    },
  });
  await app.register(fastifyStatic, { root: ADMIN_WEB_PUBLIC, prefix: '/assets/', decorateReply: false, maxAge: 3_600_000 });

  app.decorateRequest('adminUser', '');
  app.decorateRequest('adminRole', '');
  app.decorateRequest('adminCanEdit', false);
  app.decorateRequest('adminAllows', function (this: FastifyRequest, role: AdminRole) {
    return roleAllows(roles, this.adminRole, role);
  });
  app.addHook('onSend', async (req, reply, payload) => {
    if (cookieIsSecure(settings.cookieSecure, req.protocol, req.hostname)) reply.header('Strict-Transport-Security', 'max-age=31536000');
    reply
      .header('Content-Security-Policy', CSP)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'same-origin')
      .header('X-Frame-Options', 'DENY');
    return payload;
  });
  app.addHook('preHandler', async (request, reply) => {
    // The sign-in routes say so in their config; the stylesheet and script (@fastify/static takes no route config) by path.
    if (request.routeOptions.config?.adminPublic || request.routeOptions.url?.startsWith(`${base}/assets/`)) return;
    const s = await opts.auth.current(request.session.get('sid'));
    if (!s) {
      request.session.set('sid', undefined as never);
      const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
      return reply.redirect(`${base}/login${next}`, 303);
    }
    request.adminUser = s.username;
    request.adminRole = s.role;
    request.adminCanEdit = s.role === top;
    // Weaker roles: the pages hide the forms and links, and this refuses them whatever the browser sends.
    const config = request.routeOptions.config;
    const read = request.method === 'GET' || request.method === 'HEAD';
    const needed = config?.adminRole ?? (read || config?.adminAnyRole ? lowest : top);
    if (!roleAllows(roles, s.role, needed)) throw new AdminError('FORBIDDEN', opts.forbiddenText);
  });

  app.setErrorHandler(async (error, request, reply) => {
    const e = error as { code?: string; statusCode?: number };
    if (error instanceof AdminError) return render(reply, 'error', { error: error.message }, error.status);
    if (e.code?.startsWith('FST_CSRF')) return render(reply, 'error', { error: new AdminError('CSRF').message }, 403);
    if (e.statusCode === 429) {
      reply.header('Retry-After', String(Math.ceil(settings.loginWindowMs / 1000)));
      return render(reply, 'login', { error: new AdminError('RATE_LIMITED').message, username: '', next: '' }, 429);
    }
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500)
      return render(reply, 'error', { error: 'Запрос не понят: обновите страницу и попробуйте ещё раз.' }, 400);
    request.log.error({ err: error }, 'admin panel failure');
    return render(reply, 'error', { error: new AdminError('INTERNAL').message }, 500);
  });
  app.setNotFoundHandler(async (request, reply) => {
    if (!(await opts.auth.current(request.session?.get('sid')))) return reply.redirect(`${base}/login`, 303);
    return render(reply, 'error', { error: new AdminError('NOT_FOUND').message }, 404);
  });

  app.get('/', async (_req, reply) => reply.redirect(opts.home, 303));
  authRoutes(app, ctx);
  accountRoutes(app, ctx);
  usersRoutes(app, ctx);
}
