import type { Queryable } from '@app/shared';

/** One entry of the console's audit log. */
export interface ConsoleAuditEntry {
  id: string;
  at: Date;
  username: string;
  /** The client address as the console saw it. */
  ip: string;
  /** e.g. `order.reject`, `user.create`, `auth.sign-in-failed` (AUDIT_LABELS in console-audit.ts). */
  action: string;
  /** What it was done to: an order id, a user name, an endpoint id. */
  target: string;
  detail: string;
}

/** SQL of the `console_audit` table (migration 010). */
export class ConsoleAuditRepo {
  constructor(private readonly db: Queryable) {}

  async insert(e: ConsoleAuditEntry): Promise<void> {
    await this.db.query('INSERT INTO console_audit (id, at, username, ip, action, target, detail) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      e.id,
      e.at,
      e.username,
      e.ip,
      e.action,
      e.target,
      e.detail,
    ]);
  }

  /** The newest `limit` entries (newest first); with `target`, only those about it (an order's page). */
  async latest(limit: number, target?: string): Promise<ConsoleAuditEntry[]> {
    const rows = await this.db.query<Omit<ConsoleAuditEntry, 'at'> & { at: Date | string }>(
      `SELECT id, at, username, ip, action, target, detail FROM console_audit
        WHERE ($1::text IS NULL OR target = $1) ORDER BY at DESC, id DESC LIMIT $2`,
      [target ?? null, Math.max(1, Math.min(1000, Math.trunc(limit)))],
    );
    return rows.map((r) => ({ ...r, at: new Date(r.at) }));
  }
}
