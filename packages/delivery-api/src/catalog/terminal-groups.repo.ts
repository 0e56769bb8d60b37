import type { Queryable } from '@app/shared';
import type { PosMenu, ProductMapping, PushKind, StopListEntry, Street, TerminalGroupState } from './catalog.types.js';

/** The document type of each pushable column. */
interface PushedDocument {
  menu: PosMenu;
  stop_list: StopListEntry[];
  streets: Street[];
  product_mappings: ProductMapping[];
}

const COLUMNS = `organization_id, terminal_group_id, tenant_id, last_heartbeat_at, menu, menu_revision, menu_synced_at,
  stop_list, stop_list_revision, stop_list_synced_at, streets, streets_synced_at, product_mappings, product_mappings_synced_at`;

type Timestamp = Date | string;

/** A `terminal_groups` row (the COLUMNS above); pushed documents are jsonb. */
export interface TerminalGroupRow {
  organization_id: string;
  terminal_group_id: string;
  tenant_id: string;
  last_heartbeat_at: Timestamp | null;
  menu: PosMenu | null;
  menu_revision: string | null;
  menu_synced_at: Timestamp | null;
  stop_list: StopListEntry[] | null;
  stop_list_revision: string | null;
  stop_list_synced_at: Timestamp | null;
  streets: Street[] | null;
  streets_synced_at: Timestamp | null;
  product_mappings: ProductMapping[] | null;
  product_mappings_synced_at: Timestamp | null;
}

const date = (v: Timestamp | null | undefined): Date | null => (v == null ? null : new Date(v));

/** A terminal group with its pushed documents and sync times (UTC Dates). */
export function rowToTerminalGroup(r: TerminalGroupRow): TerminalGroupState {
  return {
    organizationId: r.organization_id,
    terminalGroupId: r.terminal_group_id,
    tenantId: r.tenant_id,
    lastHeartbeatAt: date(r.last_heartbeat_at),
    menu: r.menu ?? null,
    menuRevision: r.menu_revision ?? null,
    menuSyncedAt: date(r.menu_synced_at),
    stopList: r.stop_list ?? null,
    stopListRevision: r.stop_list_revision ?? null,
    stopListSyncedAt: date(r.stop_list_synced_at),
    streets: r.streets ?? null,
    streetsSyncedAt: date(r.streets_synced_at),
    productMappings: r.product_mappings ?? null,
    productMappingsSyncedAt: date(r.product_mappings_synced_at),
  };
}

/** SQL access to terminal groups and their POS-pushed catalog. */
export class TerminalGroupsRepo {
  constructor(private readonly db: Queryable) {}

  /** Whether a route created this terminal group in the tenant (a POS credential needs one). */
  async exists(tenantId: string, organizationId: string, terminalGroupId: string): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM terminal_groups WHERE tenant_id = $1 AND organization_id = $2 AND terminal_group_id = $3`, [
      tenantId,
      organizationId,
      terminalGroupId,
    ]);
    return rows.length > 0;
  }

  async get(organizationId: string, terminalGroupId: string): Promise<TerminalGroupState | null> {
    const rows = await this.db.query<TerminalGroupRow>(
      `SELECT ${COLUMNS} FROM terminal_groups WHERE organization_id = $1 AND terminal_group_id = $2`,
      [organizationId, terminalGroupId],
    );
    return rows[0] ? rowToTerminalGroup(rows[0]) : null;
  }

  /** One pushed document (null when never pushed), without loading the others (the menu is the large one). */
  async document<K extends PushKind>(kind: K, organizationId: string, terminalGroupId: string): Promise<PushedDocument[K] | null> {
    const rows = await this.db.query<{ doc: PushedDocument[K] | null }>(
      `SELECT ${kind} AS doc FROM terminal_groups WHERE organization_id = $1 AND terminal_group_id = $2`,
      [organizationId, terminalGroupId],
    );
    return rows[0]?.doc ?? null;
  }

  /** Creates the terminal group if missing (operator, when a route is created). */
  async ensure(tenantId: string, organizationId: string, terminalGroupId: string): Promise<void> {
    await this.db.query(
      `INSERT INTO terminal_groups (organization_id, terminal_group_id, tenant_id) VALUES ($1, $2, $3)
       ON CONFLICT (organization_id, terminal_group_id) DO NOTHING`,
      [organizationId, terminalGroupId, tenantId],
    );
  }

  async heartbeat(organizationId: string, terminalGroupId: string, at: Date): Promise<void> {
    await this.db.query(`UPDATE terminal_groups SET last_heartbeat_at = $3 WHERE organization_id = $1 AND terminal_group_id = $2`, [
      organizationId,
      terminalGroupId,
      at.toISOString(),
    ]);
  }

  /**
   * Stores a pushed document. The revision (a content hash) and the document change only when the content
   * changed; `synced_at` is set on every push. Returns the revision now stored and whether it changed.
   */
  async push(
    kind: PushKind,
    organizationId: string,
    terminalGroupId: string,
    doc: unknown,
    revision: string,
    at: Date,
  ): Promise<{ revision: string; changed: boolean }> {
    const rows = await this.db.query<{ revision: string; changed: boolean }>(
      `WITH prev AS (
         SELECT ${kind}_revision AS revision FROM terminal_groups
          WHERE organization_id = $1 AND terminal_group_id = $2 FOR UPDATE)
       UPDATE terminal_groups t SET
         ${kind} = CASE WHEN prev.revision IS DISTINCT FROM $4 THEN $3::jsonb ELSE t.${kind} END,
         ${kind}_revision = $4,
         ${kind}_synced_at = $5
       FROM prev WHERE t.organization_id = $1 AND t.terminal_group_id = $2
       RETURNING t.${kind}_revision AS revision, (prev.revision IS DISTINCT FROM $4) AS changed`,
      [organizationId, terminalGroupId, JSON.stringify(doc), revision, at.toISOString()],
    );
    if (!rows[0]) throw new Error(`terminal group ${organizationId}/${terminalGroupId} does not exist`);
    return rows[0];
  }

  /**
   * Terminal groups (at most `limit`) whose liveness (a heartbeat at or after `cutoff`) differs from the one last
   * reported in `notified_alive` (null: never looked at), among those routed to a source with the catalog-events
   * switch.
   */
  async livenessChanges(cutoff: Date, limit: number): Promise<LivenessChange[]> {
    const rows = await this.db.query<{
      tenant_id: string;
      organization_id: string;
      terminal_group_id: string;
      before: boolean | null;
      alive: boolean;
    }>(
      `SELECT t.tenant_id, t.organization_id, t.terminal_group_id, t.notified_alive AS before,
              (t.last_heartbeat_at IS NOT NULL AND t.last_heartbeat_at >= $1::timestamptz) AS alive
         FROM terminal_groups t
        WHERE t.notified_alive IS DISTINCT FROM (t.last_heartbeat_at IS NOT NULL AND t.last_heartbeat_at >= $1::timestamptz)
          AND EXISTS (SELECT 1 FROM routes r JOIN sources s ON s.tenant_id = r.tenant_id AND s.source = r.source
                       WHERE r.organization_id = t.organization_id AND r.terminal_group_id = t.terminal_group_id
                         AND s.features @> '["catalog-events"]'::jsonb)
        LIMIT $2`,
      [cutoff.toISOString(), limit],
    );
    return rows.map((r) => ({
      tenantId: r.tenant_id,
      organizationId: r.organization_id,
      terminalGroupId: r.terminal_group_id,
      before: r.before,
      alive: r.alive,
    }));
  }

  /** Records the liveness last reported for a terminal group. */
  async setNotifiedAlive(organizationId: string, terminalGroupId: string, alive: boolean): Promise<void> {
    await this.db.query(`UPDATE terminal_groups SET notified_alive = $3 WHERE organization_id = $1 AND terminal_group_id = $2`, [
      organizationId,
      terminalGroupId,
      alive,
    ]);
  }
}

/** A terminal group whose POS liveness changed since last reported (see {@link TerminalGroupsRepo.livenessChanges}). */
export interface LivenessChange {
  tenantId: string;
  organizationId: string;
  terminalGroupId: string;
  /** The liveness last reported; null when never looked at. */
  before: boolean | null;
  alive: boolean;
}
