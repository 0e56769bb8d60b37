import type { Clock, IdSource } from '@app/shared';
import type { AccountLockout } from './account-lockout.js';
import { AdminError, formError } from './admin-errors.js';
import type { AdminRepo, AdminSession } from './admin.repo.js';
import { hashPassword, verifyPassword } from './password.js';

/** Session lifetime: ends after `idleMs` without a request or `absoluteMs` after sign-in, whichever is first. */
export interface SessionLimits {
  idleMs: number;
  absoluteMs: number;
}

/** A password an administrator may choose: 12 to 200 characters (no composition rules; length is what counts). */
export function checkNewPassword(password: string): void {
  if (password.length < 12) throw formError('password', 'Пароль должен быть не короче 12 символов.');
  if (password.length > 200) throw formError('password', 'Пароль должен быть не длиннее 200 символов.');
}

// Verified when the user name is unknown, so a wrong name costs the same time as a wrong password.
const DUMMY_HASH = hashPassword('not-a-user-password');

/** Sign-in, sessions and sign-out of the administration panel (issue 10, item 2). Never imports Fastify. */
export class AdminAuthService {
  constructor(private readonly deps: { repo: AdminRepo; clock: Clock; ids: IdSource; limits: SessionLimits; lockout: AccountLockout }) {}

  /**
   * Checks the credentials and opens a session.
   * @throws AdminError BAD_CREDENTIALS (same text for name and password), ACCOUNT_LOCKED (too many failures for the name).
   */
  async signIn(username: string, password: string): Promise<AdminSession> {
    if (this.deps.lockout.locked(username)) throw new AdminError('ACCOUNT_LOCKED');
    const user = username ? await this.deps.repo.getUser(username.trim()) : null;
    const ok = await verifyPassword(password, user?.passwordHash ?? (await DUMMY_HASH));
    if (!user || !ok) {
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

  /** The live session with this id, or null when unknown, signed out or expired (an expired one is deleted). */
  async current(id: string | undefined): Promise<AdminSession | null> {
    if (!id) return null;
    const s = await this.deps.repo.getSession(id);
    if (!s) return null;
    const now = this.deps.clock.now().getTime();
    if (now - s.lastSeenAt.getTime() >= this.deps.limits.idleMs || now - s.createdAt.getTime() >= this.deps.limits.absoluteMs) {
      await this.deps.repo.deleteSession(id);
      return null;
    }
    // One write a minute at most: enough precision for an idle limit counted in minutes.
    if (now - s.lastSeenAt.getTime() >= 60_000) await this.deps.repo.touchSession(id, new Date(now));
    return s;
  }

  async signOut(id: string | undefined): Promise<void> {
    if (id) await this.deps.repo.deleteSession(id);
  }

  /**
   * The signed-in administrator changes their password: the current one is checked, the new one must pass
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

  /** Sets (or creates the account with) a new password; ends every session of the account. */
  async setPassword(username: string, password: string): Promise<void> {
    checkNewPassword(password);
    await this.deps.repo.upsertUser(username, await hashPassword(password), this.deps.clock.now());
  }
}
