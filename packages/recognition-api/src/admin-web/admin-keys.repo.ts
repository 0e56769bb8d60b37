import type { Queryable } from '@app/shared';
import type { ApiScope } from '../keys/keys.repo.js';

/** One row of the keys table of the panel: the key record with its usage. */
export interface KeyOverview {
  id: string;
  name: string;
  keyPrefix: string;
  scopes: ApiScope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  deactivatedAt: Date | null;
  documents: number;
}

interface Row {
  id: string;
  name: string;
  key_prefix: string;
  scopes: ApiScope[];
  created_at: Date;
  last_used_at: Date | null;
  deactivated_at: Date | null;
  documents: number;
}

/** Read-side SQL of the keys section (the writes go through KeysRepo). */
export class AdminKeysRepo {
  constructor(private readonly db: Queryable) {}

  /** Every key, active first, then newest first, with its documents count. */
  async overview(): Promise<KeyOverview[]> {
    const rows = await this.db.query<Row>(
      `SELECT k.id, k.name, k.key_prefix, k.scopes, k.created_at, k.last_used_at, k.deactivated_at,
              (SELECT count(*)::int FROM documents d WHERE d.api_key_id = k.id) AS documents
         FROM api_keys k ORDER BY (k.deactivated_at IS NOT NULL), k.created_at DESC, k.id`,
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      keyPrefix: r.key_prefix,
      scopes: r.scopes,
      createdAt: new Date(r.created_at),
      lastUsedAt: r.last_used_at ? new Date(r.last_used_at) : null,
      deactivatedAt: r.deactivated_at ? new Date(r.deactivated_at) : null,
      documents: Number(r.documents),
    }));
  }

  /** Id and name of every key (the documents filter). */
  async names(): Promise<{ id: string; name: string }[]> {
    return this.db.query<{ id: string; name: string }>('SELECT id, name FROM api_keys ORDER BY name, id');
  }
}
