/**
 * @app/admin-web: the plumbing of a server-rendered administration panel shared by the services (the recognition
 * panel and the delivery console): the account, session and audit store on each service's own tables, the account
 * commands of their CLIs, sessions, CSRF, sign-in rate limit and lockout, roles, password hashing,
 * the layout and its sign-in, error, account and users pages. No service imports here.
 */
export { AccountLockout } from './account-lockout.js';
export { type AccountTables, AdminAccountsRepo, sqlIdent } from './accounts.repo.js';
export { ADMIN_ERRORS, AdminError, type AdminErrorCode, formError } from './admin-errors.js';
export {
  ADMIN_ROLES,
  type AdminAccountStore,
  AdminAuthService,
  type AdminRole,
  type AdminSession,
  type AdminUser,
  checkNewPassword,
  type CurrentSession,
  type SessionLimits,
  USERNAME_RE,
} from './auth.service.js';
export { AdminAuditRepo, type AuditEntry } from './audit.repo.js';
export { AuditLog } from './audit-log.js';
export { type CounterStore, clockStore } from './clock-store.js';
export type { Actor, AdminWebContext, AuditFn, PanelContext } from './context.js';
export { baseViewHelpers, ROLE_LABELS } from './format.js';
export { hashPassword, parsePasswordHash, SCRYPT_PARAMS, verifyPassword } from './password.js';
export { type AdminWebOptions, installAdminWeb, type NavItem, requireRole, roleAllows } from './plugin.js';
export { actor, formErrors, render } from './render.js';
export { CSP, cookieIsSecure } from './security.js';
export { type AdminPanelOptions, type AdminSettings, adminSettings } from './settings.js';
export { cliAuthService, runUserCommand, stdinLine, type UserCommand, USERNAME_MESSAGE, withAdminErrors } from './user-cli.js';
export { ADMIN_WEB_PUBLIC, ADMIN_WEB_VIEWS, layeredEta } from './views.js';
