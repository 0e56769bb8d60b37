import type { Clock, IdSource } from '@app/shared';
import type { AccountLockout } from './account-lockout.js';
import { AdminError, formError } from './admin-errors.js';
import { hashPassword, verifyPassword } from './password.js';

/**
 * The recognition panel's roles, the default role list: `admin` everything, `viewer` read only (every mutating form
 * refused with 403). A service may give its own list (AdminWebOptions.roles), most privileged first.
 */
export const ADMIN_ROLES = ['admin', 'viewer'] as const;
/** A role name of the service's role list (e.g. `admin`, `viewer`; the delivery console: `admin`, `support`). */
export type AdminRole = string;

/** A panel account as stored (the hash, never the password). `disabledAt` set: it cannot sign in, its sessions end. */
export interface AdminUser {
  username: string;
  passwordHash: string;
  role: AdminRole;
  disabledAt: Date | null;
}

/** A signed-in session: the encrypted cookie holds `id`; expiry is judged from the two times. */
export interface AdminSession {
  id: string;
  username: string;
  createdAt: Date;
  lastSeenAt: Date;
}

/** A live session with its account's current role (read on every request, so a role change applies at once). */
export type CurrentSession = AdminSession & { role: AdminRole };

/**
 * Where a service keeps its panel accounts and sessions (its own tables and migration); the plumbing never sees SQL.
 * `upsertUser` and `setDisabled(…, date)` end every session of the account.
 */
export interface AdminAccountStore {
  getUser(username: string): Promise<AdminUser | null>;
  listUsers(): Promise<AdminUser[]>;
  /** Creates the account (the service's top role unless given) or replaces its password hash (and role when given). */
  upsertUser(username: string, passwordHash: string, now: Date, role?: AdminRole): Promise<void>;
  /** Disables (a date) or enables (null) an account; false when there is no such account. */
  setDisabled(username: string, at: Date | null): Promise<boolean>;
  setRole(username: string, role: AdminRole): Promise<boolean>;
  insertSession(s: AdminSession): Promise<void>;
  /** The session joined with its account's role and disabled state. */
  getSession(id: string): Promise<(AdminSession & { role: AdminRole; disabled: boolean }) | null>;
  touchSession(id: string, at: Date): Promise<void>;
  deleteSession(id: string): Promise<void>;
  /** Removes sessions idle since `idleBefore` or created before `createdBefore` (housekeeping at sign-in). */
  deleteExpired(idleBefore: Date, createdBefore: Date): Promise<void>;
}

/** Session lifetime: ends after `idleMs` without a request or `absoluteMs` after sign-in, whichever is first. */
export interface SessionLimits {
  idleMs: number;
  absoluteMs: number;
}

/** A password a panel user may choose: 12 to 200 characters (no composition rules; length is what counts). */
export function checkNewPassword(password: string): void {
  if (password.length < 12) throw formError('password', 'Пароль должен быть не короче 12 символов.');
  if (password.length > 200) throw formError('password', 'Пароль должен быть не длиннее 200 символов.');
}

/** A user name a panel account may have: 1–64 of Latin letters, digits, `.`, `_`, `@`, `-`. */
export const USERNAME_RE = /^[A-Za-z0-9._@-]{1,64}$/;

// Verified when the user name is unknown, so a wrong name costs the same time as a wrong password.
const DUMMY_HASH = hashPassword('not-a-user-password');

/** Sign-in, sessions, sign-out and accounts of an administration panel. Never imports Fastify. */
export class AdminAuthService {
  private readonly roles: readonly string[];
  private readonly roleError: string;

  /**
   * `roles`: the service's role list, most privileged first (default {@link ADMIN_ROLES}); the first one manages
   * accounts, and the last enabled account holding it is never disabled or demoted. `roleError`: the text of a
   * refused role name.
   */
  constructor(
    private readonly deps: {
      repo: AdminAccountStore;
      clock: Clock;
      ids: IdSource;
      limits: SessionLimits;
      lockout: AccountLockout;
      roles?: readonly string[];
      roleError?: string;
    },
  ) {
    this.roles = deps.roles ?? ADMIN_ROLES;
    this.roleError = deps.roleError ?? 'Роль: администратор или наблюдатель.';
  }

  /** The role list, most privileged first. */
  get roleList(): readonly string[] {
    return this.roles;
  }

  /**
   * Checks the credentials and opens a session. A disabled account is refused like a wrong password (the answer
   * does not tell which accounts exist).
   * @throws AdminError BAD_CREDENTIALS (same text for name and password), ACCOUNT_LOCKED (too many failures for the name).
   */
  async signIn(username: string, password: string): Promise<AdminSession> {
    if (this.deps.lockout.locked(username)) throw new AdminError('ACCOUNT_LOCKED');
    const user = username ? await this.deps.repo.getUser(username.trim()) : null;
    const ok = await verifyPassword(password, user?.passwordHash ?? (await DUMMY_HASH));
    if (!user || !ok || user.disabledAt) {
      this.deps.lockout.failed(username);
      throw new AdminError('BAD_CREDENTIALS');
    }
    this.deps.lockout.succeeded(username);
    const now = this.deps.clock.now();
    const { idleMs, absoluteMs } = this.deps.limits;
    await this.deps.repo.deleteExpired(new Date(now.getTime() - idleMs), new Date(now.getTime() - absoluteMs));
    const session: AdminSession = { id: this.deps.ids.uuid(), username: user.username, createdAt: now, lastSeenAt: now };
    await this.deps.repo.insertSession(session);
    return session;
  }

  /** The live session with this id and its role, or null when unknown, signed out, expired or its account disabled. */
  async current(id: string | undefined): Promise<CurrentSession | null> {
    if (!id) return null;
    const s = await this.deps.repo.getSession(id);
    if (!s) return null;
    const now = this.deps.clock.now().getTime();
    if (s.disabled || now - s.lastSeenAt.getTime() >= this.deps.limits.idleMs || now - s.createdAt.getTime() >= this.deps.limits.absoluteMs) {
      await this.deps.repo.deleteSession(id);
      return null;
    }
    // One write a minute at most: enough precision for an idle limit counted in minutes.
    if (now - s.lastSeenAt.getTime() >= 60_000) await this.deps.repo.touchSession(id, new Date(now));
    return { id: s.id, username: s.username, createdAt: s.createdAt, lastSeenAt: s.lastSeenAt, role: s.role };
  }

  async signOut(id: string | undefined): Promise<void> {
    if (id) await this.deps.repo.deleteSession(id);
  }

  /**
   * The signed-in user changes their own password: the current one is checked, the new one must pass
   * {@link checkNewPassword} and be typed twice alike. Every session of the account ends; a new one is returned
   * for the browser that made the change.
   * @throws AdminError VALIDATION naming `currentPassword`, `newPassword` or `repeatPassword`; nothing changes then.
   */
  async changePassword(username: string, current: string, next: string, repeat: string): Promise<AdminSession> {
    const user = await this.deps.repo.getUser(username);
    if (!user || !(await verifyPassword(current, user.passwordHash))) throw formError('currentPassword', 'Текущий пароль неверен.');
    try {
      checkNewPassword(next);
    } catch (err) {
      throw err instanceof AdminError ? formError('newPassword', err.message) : err;
    }
    if (next !== repeat) throw formError('repeatPassword', 'Пароли не совпадают.');
    if (next === current) throw formError('newPassword', 'Новый пароль совпадает с текущим.');
    await this.setPassword(username, next);
    const now = this.deps.clock.now();
    const session: AdminSession = { id: this.deps.ids.uuid(), username, createdAt: now, lastSeenAt: now };
    await this.deps.repo.insertSession(session);
    return session;
  }

  /** Sets (or creates the account with) a new password; ends every session of the account. `role` only when given. */
  async setPassword(username: string, password: string, role?: AdminRole): Promise<void> {
    checkNewPassword(password);
    await this.deps.repo.upsertUser(username, await hashPassword(password), this.deps.clock.now(), role);
  }

  /**
   * Creates an account (panel or CLI). @throws AdminError VALIDATION naming `username`, `role` or `password`
   * (an existing name included).
   */
  async createUser(username: string, password: string, role: string): Promise<void> {
    if (!USERNAME_RE.test(username)) throw formError('username', 'Имя: от 1 до 64 латинских букв, цифр и знаков . _ @ -');
    if (!this.roles.includes(role)) throw formError('role', this.roleError);
    if (await this.deps.repo.getUser(username)) throw formError('username', 'Учётная запись с таким именем уже есть.');
    await this.setPassword(username, password, role as AdminRole);
  }

  listUsers(): Promise<AdminUser[]> {
    return this.deps.repo.listUsers();
  }

  /**
   * Disables or enables an account; disabling ends its sessions. `by` may not disable itself, and the last enabled
   * admin is never disabled (the panel would have nobody left to manage it).
   * @throws AdminError NOT_FOUND, VALIDATION.
   */
  async setDisabled(username: string, disabled: boolean, by?: string): Promise<void> {
    const user = await this.deps.repo.getUser(username);
    if (!user) throw new AdminError('NOT_FOUND', 'Такой учётной записи нет.');
    if (disabled) {
      if (by === username) throw new AdminError('VALIDATION', 'Свою учётную запись отключить нельзя.');
      if (user.role === this.roles[0] && (await this.enabledAdmins()) <= 1)
        throw new AdminError('VALIDATION', 'Это последний действующий администратор.');
    }
    await this.deps.repo.setDisabled(username, disabled ? this.deps.clock.now() : null);
  }

  /** Changes an account's role (applies from its next request). @throws AdminError NOT_FOUND, VALIDATION. */
  async setRole(username: string, role: string, by?: string): Promise<void> {
    if (!this.roles.includes(role)) throw formError('role', this.roleError);
    const top = this.roles[0];
    const user = await this.deps.repo.getUser(username);
    if (!user) throw new AdminError('NOT_FOUND', 'Такой учётной записи нет.');
    if (user.role === top && role !== top) {
      if (by === username) throw new AdminError('VALIDATION', 'Свою роль понизить нельзя.');
      if (!user.disabledAt && (await this.enabledAdmins()) <= 1) throw new AdminError('VALIDATION', 'Это последний действующий администратор.');
    }
    await this.deps.repo.setRole(username, role as AdminRole);
  }

  private async enabledAdmins(): Promise<number> {
    return (await this.deps.repo.listUsers()).filter((u) => u.role === this.roles[0] && !u.disabledAt).length;
  }
}
