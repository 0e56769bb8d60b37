/**
 * @app/admin-web: the plumbing of a server-rendered administration panel shared by the services (the recognition
 * panel today, a delivery console later): sessions, CSRF, sign-in rate limit and lockout, roles, password hashing,
 * the layout and its sign-in, error, account and users pages. No service imports here.
 */
export { AccountLockout } from './account-lockout.js';
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
export { type CounterStore, clockStore } from './clock-store.js';
export type { Actor, AdminWebContext, AuditFn, PanelContext } from './context.js';
export { baseViewHelpers, ROLE_LABELS } from './format.js';
export { hashPassword, parsePasswordHash, SCRYPT_PARAMS, verifyPassword } from './password.js';
export { type AdminWebOptions, installAdminWeb, type NavItem, requireRole, roleAllows } from './plugin.js';
export { actor, formErrors, render } from './render.js';
export { CSP, cookieIsSecure } from './security.js';
export { type AdminPanelOptions, type AdminSettings, adminSettings } from './settings.js';
export { ADMIN_WEB_PUBLIC, ADMIN_WEB_VIEWS, layeredEta } from './views.js';
