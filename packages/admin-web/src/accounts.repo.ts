import type { Queryable } from '@app/shared';
import type { AdminAccountStore, AdminRole, AdminSession, AdminUser } from './auth.service.js';

/**
 * Which tables a service keeps its panel accounts in (its own migration creates them; the shapes are the same in
 * both services: `users(username, password_hash, role, disabled_at, created_at, updated_at)` and
 * `sessions(id, username, created_at, last_seen_at)`), and the role a new account gets when none is named.
 */
export interface AccountTables {
  users: string;
  sessions: string;
  defaultRole: AdminRole;
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

/** Table names are spliced into SQL, so only plain lower-case identifiers are taken (they come from code, never input). */
export function sqlIdent(name: string): string {
  if (!IDENT.test(name)) throw new Error(`not a plain SQL identifier: ${JSON.stringify(name)}`);
  return name;
}

interface UserRow {
  username: string;
  password_hash: string;
  role: AdminRole;
  disabled_at: Date | string | null;
}

const toUser = (r: UserRow): AdminUser => ({
  username: r.username,
  passwordHash: r.password_hash,
  role: r.role,
  disabledAt: r.disabled_at ? new Date(r.disabled_at) : null,
});

/**
 * The one owner of a service's panel account and session tables (the recognition panel's `admin_users` and
 * `admin_sessions`, the delivery console's `console_users` and `console_sessions`).
 * @throws Error at construction when a table name is not a plain identifier.
 */
export class AdminAccountsRepo implements AdminAccountStore {
  private readonly users: string;
  private readonly sessions: string;

  constructor(
    private readonly db: Queryable,
    private readonly tables: AccountTables,
  ) {
    this.users = sqlIdent(tables.users);
    this.sessions = sqlIdent(tables.sessions);
  }

  async getUser(username: string): Promise<AdminUser | null> {
    const r = (
      await this.db.query<UserRow>(`SELECT username, password_hash, role, disabled_at FROM ${this.users} WHERE username = $1`, [username])
    )[0];
    return r ? toUser(r) : null;
  }

  async listUsers(): Promise<AdminUser[]> {
    return (await this.db.query<UserRow>(`SELECT username, password_hash, role, disabled_at FROM ${this.users} ORDER BY username`)).map(toUser);
  }

  /** Creates the account (the tables' default role unless given) or replaces its password hash (and role when given); its sessions end. */
  async upsertUser(username: string, passwordHash: string, now: Date, role?: AdminRole): Promise<void> {
    await this.db.query(
      `INSERT INTO ${this.users} (username, password_hash, role, created_at, updated_at) VALUES ($1, $2, coalesce($4, $5::text), $3, $3)
       ON CONFLICT (username) DO UPDATE SET password_hash = $2, updated_at = $3, role = coalesce($4, ${this.users}.role)`,
      [username, passwordHash, now, role ?? null, this.tables.defaultRole],
    );
    await this.db.query(`DELETE FROM ${this.sessions} WHERE username = $1`, [username]);
  }

  async setDisabled(username: string, at: Date | null): Promise<boolean> {
    const rows = await this.db.query(`UPDATE ${this.users} SET disabled_at = $2 WHERE username = $1 RETURNING username`, [username, at]);
    if (at) await this.db.query(`DELETE FROM ${this.sessions} WHERE username = $1`, [username]);
    return rows.length > 0;
  }

  async setRole(username: string, role: AdminRole): Promise<boolean> {
    return (await this.db.query(`UPDATE ${this.users} SET role = $2 WHERE username = $1 RETURNING username`, [username, role])).length > 0;
  }

  async insertSession(s: AdminSession): Promise<void> {
    await this.db.query(`INSERT INTO ${this.sessions} (id, username, created_at, last_seen_at) VALUES ($1, $2, $3, $4)`, [
      s.id,
      s.username,
      s.createdAt,
      s.lastSeenAt,
    ]);
  }

  async getSession(id: string): Promise<(AdminSession & { role: AdminRole; disabled: boolean }) | null> {
    const r = (
      await this.db.query<{ id: string; username: string; created_at: Date; last_seen_at: Date; role: AdminRole; disabled: boolean }>(
        `SELECT s.id, s.username, s.created_at, s.last_seen_at, u.role, (u.disabled_at IS NOT NULL) AS disabled
           FROM ${this.sessions} s JOIN ${this.users} u ON u.username = s.username WHERE s.id = $1`,
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
    await this.db.query(`UPDATE ${this.sessions} SET last_seen_at = $2 WHERE id = $1`, [id, at]);
  }

  async deleteSession(id: string): Promise<void> {
    await this.db.query(`DELETE FROM ${this.sessions} WHERE id = $1`, [id]);
  }

  async deleteExpired(idleBefore: Date, createdBefore: Date): Promise<void> {
    await this.db.query(`DELETE FROM ${this.sessions} WHERE last_seen_at < $1 OR created_at < $2`, [idleBefore, createdBefore]);
  }
}
