import type { Queryable } from '@app/shared';

/** One entry of the panel's audit log. */
export interface AuditEntry {
  id: string;
  at: Date;
  username: string;
  ip: string;
  /** e.g. `key.create`, `key.scopes`, `edo.save`, `auth.sign-in-failed` (ACTION_LABELS in admin-audit.ts). */
  action: string;
  /** What it was done to: a key's name and id, a document id, the box id, a user name. */
  target: string;
  detail: string;
}

/** SQL of the `admin_audit` table (migration 006). */
export class AdminAuditRepo {
  constructor(private readonly db: Queryable) {}

  async insert(e: AuditEntry): Promise<void> {
    await this.db.query('INSERT INTO admin_audit (id, at, username, ip, action, target, detail) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      e.id,
      e.at,
      e.username,
      e.ip,
      e.action,
      e.target,
      e.detail,
    ]);
  }

  /** The newest `limit` entries, newest first. */
  async latest(limit: number): Promise<AuditEntry[]> {
    const rows = await this.db.query<Omit<AuditEntry, 'at'> & { at: Date | string }>(
      `SELECT id, at, username, ip, action, target, detail FROM admin_audit ORDER BY at DESC, id DESC LIMIT ${Number(limit)}`,
    );
    return rows.map((r) => ({ ...r, at: new Date(r.at) }));
  }
}
