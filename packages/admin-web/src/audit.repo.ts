import type { Queryable } from '@app/shared';
import { sqlIdent } from './accounts.repo.js';

/** One entry of a panel's audit log. */
export interface AuditEntry {
  id: string;
  at: Date;
  username: string;
  /** The client address as the panel saw it (through TRUST_PROXY where set). */
  ip: string;
  /** e.g. `auth.sign-in-failed`, `user.create`, `key.scopes`, `order.reject` (the service's label table names them). */
  action: string;
  /** What it was done to: a user name, a key, a document, an order id, an endpoint id. */
  target: string;
  detail: string;
}

/**
 * SQL of a service's audit table (`admin_audit` in recognition, `console_audit` in delivery; the same columns).
 * @throws Error at construction when the table name is not a plain identifier.
 */
export class AdminAuditRepo {
  private readonly table: string;

  constructor(
    private readonly db: Queryable,
    table: string,
  ) {
    this.table = sqlIdent(table);
  }

  async insert(e: AuditEntry): Promise<void> {
    await this.db.query(`INSERT INTO ${this.table} (id, at, username, ip, action, target, detail) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      e.id,
      e.at,
      e.username,
      e.ip,
      e.action,
      e.target,
      e.detail,
    ]);
  }

  /** The newest `limit` entries (1 to 1000, newest first); with `target`, only those about it (an order's page). */
  async latest(limit: number, target?: string): Promise<AuditEntry[]> {
    const rows = await this.db.query<Omit<AuditEntry, 'at'> & { at: Date | string }>(
      `SELECT id, at, username, ip, action, target, detail FROM ${this.table}
        WHERE ($1::text IS NULL OR target = $1) ORDER BY at DESC, id DESC LIMIT $2`,
      [target ?? null, Math.max(1, Math.min(1000, Math.trunc(limit)))],
    );
    return rows.map((r) => ({ ...r, at: new Date(r.at) }));
  }
}
