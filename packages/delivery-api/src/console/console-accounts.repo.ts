import type { AdminAccountStore, AdminSession, AdminUser } from '@app/admin-web';
import type { Queryable } from '@app/shared';

interface UserRow {
  username: string;
  password_hash: string;
  role: string;
  disabled_at: Date | string | null;
}

const toUser = (r: UserRow): AdminUser => ({
  username: r.username,
  passwordHash: r.password_hash,
  role: r.role,
  disabledAt: r.disabled_at ? new Date(r.disabled_at) : null,
});

/** The one owner of `console_users` and `console_sessions` (migration 010): the console's accounts and sessions. */
export class ConsoleAccountsRepo implements AdminAccountStore {
  constructor(private readonly db: Queryable) {}

  async getUser(username: string): Promise<AdminUser | null> {
    const r = (
      await this.db.query<UserRow>('SELECT username, password_hash, role, disabled_at FROM console_users WHERE username = $1', [username])
    )[0];
    return r ? toUser(r) : null;
  }

  async listUsers(): Promise<AdminUser[]> {
    return (await this.db.query<UserRow>('SELECT username, password_hash, role, disabled_at FROM console_users ORDER BY username')).map(toUser);
  }

  /** Creates the account (role `support` unless given) or replaces its password hash (and role when given); its sessions end. */
  async upsertUser(username: string, passwordHash: string, now: Date, role?: string): Promise<void> {
    await this.db.query(
      `INSERT INTO console_users (username, password_hash, role, created_at, updated_at) VALUES ($1, $2, coalesce($4, 'support'), $3, $3)
       ON CONFLICT (username) DO UPDATE SET password_hash = $2, updated_at = $3, role = coalesce($4, console_users.role)`,
      [username, passwordHash, now, role ?? null],
    );
    await this.db.query('DELETE FROM console_sessions WHERE username = $1', [username]);
  }

  async setDisabled(username: string, at: Date | null): Promise<boolean> {
    const rows = await this.db.query('UPDATE console_users SET disabled_at = $2 WHERE username = $1 RETURNING username', [username, at]);
    if (at) await this.db.query('DELETE FROM console_sessions WHERE username = $1', [username]);
    return rows.length > 0;
  }

  async setRole(username: string, role: string): Promise<boolean> {
    return (await this.db.query('UPDATE console_users SET role = $2 WHERE username = $1 RETURNING username', [username, role])).length > 0;
  }

  async insertSession(s: AdminSession): Promise<void> {
    await this.db.query('INSERT INTO console_sessions (id, username, created_at, last_seen_at) VALUES ($1, $2, $3, $4)', [
      s.id,
      s.username,
      s.createdAt,
      s.lastSeenAt,
    ]);
  }

  async getSession(id: string): Promise<(AdminSession & { role: string; disabled: boolean }) | null> {
    const r = (
      await this.db.query<{ id: string; username: string; created_at: Date; last_seen_at: Date; role: string; disabled: boolean }>(
        `SELECT s.id, s.username, s.created_at, s.last_seen_at, u.role, (u.disabled_at IS NOT NULL) AS disabled
           FROM console_sessions s JOIN console_users u ON u.username = s.username WHERE s.id = $1`,
        [id],
      )
    )[0];
    return r
      ? {
          id: r.id,
          username: r.username,
          createdAt: new Date(r.created_at),
          lastSeenAt: new Date(r.last_seen_at),
          role: r.role,
          disabled: r.disabled,
        }
      : null;
  }

  async touchSession(id: string, at: Date): Promise<void> {
    await this.db.query('UPDATE console_sessions SET last_seen_at = $2 WHERE id = $1', [id, at]);
  }

  async deleteSession(id: string): Promise<void> {
    await this.db.query('DELETE FROM console_sessions WHERE id = $1', [id]);
  }

  async deleteExpired(idleBefore: Date, createdBefore: Date): Promise<void> {
    await this.db.query('DELETE FROM console_sessions WHERE last_seen_at < $1 OR created_at < $2', [idleBefore, createdBefore]);
  }
}
