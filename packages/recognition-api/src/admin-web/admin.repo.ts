import type { Queryable } from '@app/shared';

/** The administrator account as stored (the hash, never the password). */
export interface AdminUser {
  username: string;
  passwordHash: string;
}

/** A signed-in session: the encrypted cookie holds `id`; expiry is judged from the two times. */
export interface AdminSession {
  id: string;
  username: string;
  createdAt: Date;
  lastSeenAt: Date;
}

/** SQL of `admin_users` and `admin_sessions` (migration 004). */
export class AdminRepo {
  constructor(private readonly db: Queryable) {}

  async getUser(username: string): Promise<AdminUser | null> {
    const r = (
      await this.db.query<{ username: string; password_hash: string }>('SELECT username, password_hash FROM admin_users WHERE username = $1', [
        username,
      ])
    )[0];
    return r ? { username: r.username, passwordHash: r.password_hash } : null;
  }

  async countUsers(): Promise<number> {
    return (await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM admin_users'))[0]!.n;
  }

  /** Creates the account or replaces its password hash; every session of that account ends. */
  async upsertUser(username: string, passwordHash: string, now: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO admin_users (username, password_hash, created_at, updated_at) VALUES ($1, $2, $3, $3)
       ON CONFLICT (username) DO UPDATE SET password_hash = $2, updated_at = $3`,
      [username, passwordHash, now],
    );
    await this.db.query('DELETE FROM admin_sessions WHERE username = $1', [username]);
  }

  async insertSession(s: AdminSession): Promise<void> {
    await this.db.query('INSERT INTO admin_sessions (id, username, created_at, last_seen_at) VALUES ($1, $2, $3, $4)', [
      s.id,
      s.username,
      s.createdAt,
      s.lastSeenAt,
    ]);
  }

  async getSession(id: string): Promise<AdminSession | null> {
    const r = (
      await this.db.query<{ id: string; username: string; created_at: Date; last_seen_at: Date }>('SELECT * FROM admin_sessions WHERE id = $1', [id])
    )[0];
    return r ? { id: r.id, username: r.username, createdAt: new Date(r.created_at), lastSeenAt: new Date(r.last_seen_at) } : null;
  }

  async touchSession(id: string, at: Date): Promise<void> {
    await this.db.query('UPDATE admin_sessions SET last_seen_at = $2 WHERE id = $1', [id, at]);
  }

  async deleteSession(id: string): Promise<void> {
    await this.db.query('DELETE FROM admin_sessions WHERE id = $1', [id]);
  }

  /** Removes sessions idle since `idleBefore` or created before `createdBefore` (housekeeping at sign-in). */
  async deleteExpired(idleBefore: Date, createdBefore: Date): Promise<void> {
    await this.db.query('DELETE FROM admin_sessions WHERE last_seen_at < $1 OR created_at < $2', [idleBefore, createdBefore]);
  }
}
