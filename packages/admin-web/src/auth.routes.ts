import type { FastifyInstance } from 'fastify';
import { AdminError } from './admin-errors.js';
import type { PanelContext } from './context.js';
import { render } from './render.js';

/** A `next` target inside the panel only (no open redirect to another site). */
const safeNext = (v: unknown, home: string, base: string): string =>
  typeof v === 'string' && v.startsWith(base) && /^(\/[^\s\\]*)?(\?[^\s\\]*)?$/.test(v.slice(base.length)) && !v.startsWith('//') ? v : home;

/** The account name a sign-in form gave, cut to the audit log's 64 characters ('' when none). */
const formUsername = (body: unknown): string => {
  const v = (body as Record<string, unknown> | undefined)?.username;
  return typeof v === 'string' ? v.slice(0, 64) : '';
};

/** Sign-in and sign-out. */
export function authRoutes(app: FastifyInstance, c: PanelContext): void {
  app.get('/login', { config: { adminPublic: true } }, async (req, reply) => {
    if (await c.auth.current(req.session.get('sid'))) return reply.redirect(c.home, 303);
    const q = req.query as Record<string, unknown>;
    return render(reply, 'login', {
      username: '',
      next: safeNext(q.next, c.home, c.base),
      notice: q.signedOut === '1' ? 'Вы вышли из панели.' : null,
    });
  });

  app.post(
    '/login',
    {
      // The limit runs once the form is parsed (preValidation, still before the CSRF check) so that a refused
      // attempt can be audited with the account it tried.
      config: {
        adminPublic: true,
        rateLimit: { max: c.settings.loginMaxAttempts, timeWindow: c.settings.loginWindowMs, hook: 'preValidation' },
      },
      preHandler: app.csrfProtection,
      // A sign-in refused by the per-address limit (429) never reaches the handler: audit it here, who and from where.
      onError: async (req, _reply, err) => {
        if ((err as { statusCode?: number }).statusCode !== 429) return;
        const username = formUsername(req.body);
        await c.audit({ username, ip: req.ip }, 'auth.sign-in-failed', username, 'RATE_LIMITED');
      },
    },
    async (req, reply) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const username = typeof body.username === 'string' ? body.username : '';
      const password = typeof body.password === 'string' ? body.password : '';
      try {
        const session = await c.auth.signIn(username, password);
        await c.audit({ username: session.username, ip: req.ip }, 'auth.sign-in', session.username);
        // A new secret for the CSRF tokens of the signed-in session (the sign-in form's token dies with it).
        req.session.set('_csrf', undefined as never);
        req.session.set('sid', session.id);
        return reply.redirect(safeNext(body.next, c.home, c.base), 303);
      } catch (err) {
        if (!(err instanceof AdminError)) throw err;
        await c.audit({ username: username.slice(0, 64), ip: req.ip }, 'auth.sign-in-failed', username.slice(0, 64), err.code);
        return render(reply, 'login', { error: err.message, username, next: safeNext(body.next, c.home, c.base) }, err.status);
      }
    },
  );

  app.post('/logout', { config: { adminAnyRole: true }, preHandler: app.csrfProtection }, async (req, reply) => {
    await c.auth.signOut(req.session.get('sid'));
    req.session.delete();
    return reply.redirect(`${c.base}/login?signedOut=1`, 303);
  });
}
