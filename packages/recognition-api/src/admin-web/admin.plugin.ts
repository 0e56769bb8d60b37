import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import secureSession from '@fastify/secure-session';
import fastifyStatic from '@fastify/static';
import view from '@fastify/view';
import { Eta } from 'eta';
import type { Clock } from '@app/shared';
import { accountRoutes } from './admin-account.routes.js';
import { authRoutes } from './admin-auth.routes.js';
import { documentsRoutes } from './admin-documents.routes.js';
import { edoRoutes } from './admin-edo.routes.js';
import { AdminError } from './admin-errors.js';
import { keysRoutes } from './admin-keys.routes.js';
import { clockStore } from './clock-store.js';
import type { AdminServices, AdminSettings } from './admin.module.js';
import { render } from './admin-render.js';

declare module '@fastify/secure-session' {
  interface SessionData {
    /** Id of the `admin_sessions` row; absent before sign-in. */
    sid: string;
    _csrf: string;
    /** A key just created, until the page after the redirect has shown it once (Post/Redirect/Get). */
    createdKey: { name: string; key: string; callbackSecret: string; scopes: string[] };
    /** A callback secret just rotated, until the page after the redirect has shown it once. */
    rotatedSecret: { name: string; secret: string };
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in administrator (set by the session guard). */
    adminUser: string;
  }
  interface FastifyContextConfig {
    /** Reachable without a session (sign-in page, stylesheet). */
    adminPublic?: boolean;
  }
}

const VIEWS = fileURLToPath(new URL('./views', import.meta.url));
const PUBLIC = fileURLToPath(new URL('./public', import.meta.url));

/** Host names of this machine: plain http to them is the one case `auto` leaves the cookie without Secure. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[?::1\]?)$/i;

/**
 * Whether the session cookie gets `Secure` (and the answer HSTS): ADMIN_COOKIE_SECURE `1`/`0` decide; `auto` means
 * Secure unless the request is plain http to a loopback host (`npm start` on a laptop). Behind a TLS proxy
 * `protocol` is `https` once TRUST_PROXY names the proxy; without it a non-loopback host still gets Secure, so a
 * misconfigured proxy cannot downgrade the cookie.
 */
export function cookieIsSecure(setting: 'auto' | boolean, protocol: string, hostname: string): boolean {
  if (setting !== 'auto') return setting;
  return protocol === 'https' || !LOOPBACK.test(hostname);
}

/** Only our own files; no inline script or style, no framing, forms post only to us. */
export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * The administration panel (issue 10), registered with prefix `/admin`: encrypted HttpOnly SameSite=Strict session
 * cookie (`@fastify/secure-session`), CSRF tokens on every POST (`@fastify/csrf-protection`), sign-in rate limiting
 * (`@fastify/rate-limit` with a store on the injected clock), Eta views, one stylesheet and one script
 * (`@fastify/static`), a Content-Security-Policy on every answer. Everything but the sign-in page and the assets
 * needs a live session; an API key opens nothing here.
 */
export async function adminPanel(app: FastifyInstance, opts: { services: AdminServices; settings: AdminSettings; clock: Clock }): Promise<void> {
  const { services, settings } = opts;
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(secureSession, {
    key: settings.sessionKey,
    cookieName: 'admin_session',
    // The row in admin_sessions decides expiry (injected clock); the cookie's own limit is only a backstop.
    expiry: Math.ceil(settings.absoluteMs / 1000) + 60,
    cookie: { path: '/admin', httpOnly: true, sameSite: 'strict', secure: settings.cookieSecure },
  });
  // The cookie's Secure flag per request: https is read through TRUST_PROXY (request.protocol), see cookieIsSecure.
  app.addHook('onRequest', async (request) => {
    request.session?.options({ secure: cookieIsSecure(settings.cookieSecure, request.protocol, request.hostname) });
  });
  await app.register(csrf, {
    sessionPlugin: '@fastify/secure-session',
    // Only the form field: a token in a URL would leak through logs and Referer.
    getToken: (req: FastifyRequest) => (req.body as Record<string, unknown> | undefined)?._csrf as string | undefined,
  });
  await app.register(rateLimit, { global: false, store: clockStore(opts.clock) });
  await app.register(view, { engine: { eta: new Eta({ cache: true }) }, root: VIEWS, viewExt: 'eta' });
  await app.register(fastifyStatic, { root: PUBLIC, prefix: '/assets/', decorateReply: false, maxAge: 3_600_000 });

  app.decorateRequest('adminUser', '');
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
    if (request.routeOptions.config?.adminPublic || request.routeOptions.url?.startsWith('/admin/assets/')) return;
    const s = await services.auth.current(request.session.get('sid'));
    if (!s) {
      request.session.set('sid', undefined as never);
      const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
      return reply.redirect(`/admin/login${next}`, 303);
    }
    request.adminUser = s.username;
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
    if (!(await services.auth.current(request.session?.get('sid')))) return reply.redirect('/admin/login', 303);
    return render(reply, 'error', { error: new AdminError('NOT_FOUND').message }, 404);
  });

  app.get('/', async (_req, reply) => reply.redirect('/admin/documents', 303));
  authRoutes(app, services, settings);
  keysRoutes(app, services);
  edoRoutes(app, services);
  documentsRoutes(app, services);
  accountRoutes(app, services);
}
