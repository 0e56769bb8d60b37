import { randomBytes } from 'node:crypto';

/** Options of a panel (milliseconds); every one has a default for tests. */
export interface AdminPanelOptions {
  /** 32 bytes that encrypt the session cookie; default random (sessions then end with the process). */
  sessionKey?: Buffer;
  cookieSecure?: 'auto' | boolean;
  idleMs?: number;
  absoluteMs?: number;
  loginMaxAttempts?: number;
  loginWindowMs?: number;
  /** Wrong passwords for one user name within loginWindowMs before that name is locked (any address). */
  accountMaxFailures?: number;
}

/** The panel's settings with defaults applied. */
export type AdminSettings = Required<AdminPanelOptions>;

/** Defaults: 30 min idle, 12 h absolute, 10 sign-ins / 15 min per address, 10 failures per name. */
export function adminSettings(o: AdminPanelOptions = {}): AdminSettings {
  return {
    sessionKey: o.sessionKey ?? randomBytes(32),
    cookieSecure: o.cookieSecure ?? 'auto',
    idleMs: o.idleMs ?? 30 * 60_000,
    absoluteMs: o.absoluteMs ?? 12 * 3_600_000,
    loginMaxAttempts: o.loginMaxAttempts ?? 10,
    loginWindowMs: o.loginWindowMs ?? 15 * 60_000,
    accountMaxFailures: o.accountMaxFailures ?? 10,
  };
}
