import type { AdminAuthService } from './auth.service.js';
import type { AdminSettings } from './settings.js';

/** Who acted and from where: the signed-in (or attempted) user name and the client address. */
export interface Actor {
  username: string;
  ip: string;
}

/**
 * Records one audited action (the service's audit log). Actions of the plumbing: `auth.sign-in`,
 * `auth.sign-in-failed`, `auth.password`, `user.create`, `user.disable`, `user.enable`, `user.role`.
 */
export type AuditFn = (actor: Actor, action: string, target: string, detail?: string) => Promise<void>;

/** What the plumbing's own routes (sign-in, account, users) need from the service. */
export interface AdminWebContext {
  auth: AdminAuthService;
  audit: AuditFn;
  settings: AdminSettings;
  /** Where `/admin` and a successful sign-in go, e.g. `/admin/documents`. */
  home: string;
}

/** The context the plumbing's own routes receive: the service's, plus the prefix and the role list. */
export interface PanelContext extends AdminWebContext {
  /** The panel's prefix, e.g. `/admin` or `/console`. */
  base: string;
  /** Most privileged first. */
  roles: readonly string[];
  /** The least role that sees the users page. */
  usersRole: string;
}
