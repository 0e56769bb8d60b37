import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdminError } from './admin-errors.js';

/**
 * Renders a template with what every page needs: the CSRF token, the signed-in user and role (`canEdit`: false below
 * the top role, e.g. a viewer, whose pages hide every mutating form; `allows(role)`: the user's role is that or above), the section. The helpers (`it.h`), the brand and the navigation
 * come from the plugin's view context.
 */
export async function render(reply: FastifyReply, template: string, data: Record<string, unknown> = {}, status = 200): Promise<FastifyReply> {
  const csrfToken = await reply.generateCsrf();
  const req = reply.request;
  return reply
    .status(status)
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .view(template, {
      section: '',
      error: null,
      fieldErrors: {},
      notice: null,
      ...data,
      csrfToken,
      user: req.adminUser || null,
      role: req.adminRole || null,
      canEdit: req.adminCanEdit,
      allows: (role: string) => req.adminAllows(role),
    });
}

/** The actor of an audited action: the signed-in user and the client address (through the app's trustProxy). */
export const actor = (req: FastifyRequest): { username: string; ip: string } => ({ username: req.adminUser, ip: req.ip });

/** The form error of an AdminError as `{field: message}` plus the general message. */
export function formErrors(err: AdminError): { error: string; fieldErrors: Record<string, string> } {
  return {
    error: err.field ? 'Форма не сохранена: исправьте отмеченные поля.' : err.message,
    fieldErrors: err.field ? { [err.field]: err.message } : {},
  };
}
