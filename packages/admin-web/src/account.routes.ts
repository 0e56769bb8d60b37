import type { FastifyInstance } from 'fastify';
import { AdminError } from './admin-errors.js';
import type { PanelContext } from './context.js';
import { actor, formErrors, render } from './render.js';

const fields = [
  { name: 'currentPassword', label: 'Текущий пароль', autocomplete: 'current-password' },
  { name: 'newPassword', label: 'Новый пароль (не короче 12 символов)', autocomplete: 'new-password' },
  { name: 'repeatPassword', label: 'Новый пароль ещё раз', autocomplete: 'new-password' },
];

/** The signed-in user's own account: password change (any role, a viewer too). */
export function accountRoutes(app: FastifyInstance, c: PanelContext): void {
  app.get('/account', async (req, reply) => {
    const changed = (req.query as Record<string, unknown>).changed === '1';
    return render(reply, 'account', { section: 'account', fields, notice: changed ? 'Пароль изменён. Другие сеансы завершены.' : null });
  });

  app.post('/account/password', { config: { adminAnyRole: true }, preHandler: app.csrfProtection }, async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const str = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : '');
    try {
      const session = await c.auth.changePassword(req.adminUser, str('currentPassword'), str('newPassword'), str('repeatPassword'));
      // Every session of the account ended with the change; this browser continues in a new one.
      req.session.set('_csrf', undefined as never);
      req.session.set('sid', session.id);
      await c.audit(actor(req), 'auth.password', req.adminUser);
      return reply.redirect(`${c.base}/account?changed=1`, 303);
    } catch (err) {
      if (!(err instanceof AdminError)) throw err;
      return render(reply, 'account', { section: 'account', fields, ...formErrors(err) }, err.status);
    }
  });
}
