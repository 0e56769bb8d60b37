import type { FastifyInstance } from 'fastify';
import { AdminError } from './admin-errors.js';
import type { PanelContext } from './context.js';
import { actor, formErrors, render } from './render.js';

/**
 * Panel accounts (`<prefix>/users`): the list for `usersRole` and above; create, disable/enable and role change for an admin
 * only (the plugin's role guard refuses a viewer's POST with 403 before these handlers run).
 */
export function usersRoutes(app: FastifyInstance, c: PanelContext): void {
  const page = async (extra: Record<string, unknown> = {}) => ({
    section: 'users',
    users: await c.auth.listUsers(),
    roles: c.roles,
    form: { username: '', role: c.roles[c.roles.length - 1] },
    ...extra,
  });
  const DONE: Record<string, string> = {
    created: 'Учётная запись создана.',
    disabled: 'Учётная запись отключена, её сеансы завершены.',
    enabled: 'Учётная запись снова действует.',
    role: 'Роль изменена.',
  };

  app.get('/users', { config: { adminRole: c.usersRole } }, async (req, reply) => {
    const done = String((req.query as Record<string, unknown>).done ?? '');
    return render(reply, 'users', await page({ notice: DONE[done] ?? null }));
  });

  app.post('/users', { preHandler: app.csrfProtection }, async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const str = (k: string) => (typeof body[k] === 'string' ? (body[k] as string).trim() : '');
    try {
      await c.auth.createUser(str('username'), typeof body.password === 'string' ? body.password : '', str('role'));
      await c.audit(actor(req), 'user.create', str('username'), str('role'));
      return reply.redirect(`${c.base}/users?done=created`, 303);
    } catch (err) {
      if (!(err instanceof AdminError)) throw err;
      return render(reply, 'users', await page({ ...formErrors(err), form: { username: str('username'), role: str('role') } }), err.status);
    }
  });

  const actions = {
    disable: (u: string, by: string) => c.auth.setDisabled(u, true, by),
    enable: (u: string, by: string) => c.auth.setDisabled(u, false, by),
  };
  for (const [action, run] of Object.entries(actions)) {
    app.post(`/users/:username/${action}`, { preHandler: app.csrfProtection }, async (req, reply) => {
      const { username } = req.params as { username: string };
      try {
        await run(username, req.adminUser);
      } catch (err) {
        if (!(err instanceof AdminError) || err.code !== 'VALIDATION') throw err;
        return render(reply, 'users', await page({ error: err.message }), err.status);
      }
      await c.audit(actor(req), `user.${action}`, username);
      return reply.redirect(`${c.base}/users?done=${action}d`, 303);
    });
  }

  app.post('/users/:username/role', { preHandler: app.csrfProtection }, async (req, reply) => {
    const { username } = req.params as { username: string };
    const role = String((req.body as Record<string, unknown> | undefined)?.role ?? '');
    try {
      await c.auth.setRole(username, role, req.adminUser);
    } catch (err) {
      if (!(err instanceof AdminError) || err.code !== 'VALIDATION') throw err;
      return render(reply, 'users', await page({ error: err.message }), err.status);
    }
    await c.audit(actor(req), 'user.role', username, role);
    return reply.redirect(`${c.base}/users?done=role`, 303);
  });
}
