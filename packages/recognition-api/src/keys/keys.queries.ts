import type { Queryable } from '@app/shared';
import type { ApiKeyRecord, ApiKeyRow } from './keys.repo.js';

/** Requests and error answers of a key over a period. */
export interface KeyUsage {
  requests: number;
  errors: number;
}

/** One row of the panel's keys table: the key record with its usage. */
export interface KeyOverview extends ApiKeyRecord {
  lastUsedAt: Date | null;
  documents: number;
  /** Counted per hour (api_key_usage): the last 24 hours and the last 7 days, hour buckets that began since then. */
  day: KeyUsage;
  week: KeyUsage;
}

interface Row extends ApiKeyRow {
  last_used_at: Date | null;
  documents: number;
  day_requests: number;
  day_errors: number;
  week_requests: number;
  week_errors: number;
}

/** Read models over `api_keys` for the administration panel (the writes go through KeysRepo). */
export class KeysQueries {
  constructor(private readonly db: Queryable) {}

  /** Every key, active first, then newest first, with its documents count and usage up to `now`. */
  async overview(now: Date): Promise<KeyOverview[]> {
    const day = new Date(now.getTime() - 24 * 3_600_000);
    const week = new Date(now.getTime() - 7 * 24 * 3_600_000);
    const rows = await this.db.query<Row>(
      `SELECT k.id, k.name, k.key_prefix, k.scopes, k.created_at, k.last_used_at, k.deactivated_at,
              (SELECT count(*)::int FROM documents d WHERE d.api_key_id = k.id) AS documents,
              coalesce(sum(u.requests) FILTER (WHERE u.hour >= $1), 0)::int AS day_requests,
              coalesce(sum(u.errors) FILTER (WHERE u.hour >= $1), 0)::int AS day_errors,
              coalesce(sum(u.requests), 0)::int AS week_requests,
              coalesce(sum(u.errors), 0)::int AS week_errors
         FROM api_keys k LEFT JOIN api_key_usage u ON u.api_key_id = k.id AND u.hour >= $2
        GROUP BY k.id
        ORDER BY (k.deactivated_at IS NOT NULL), k.created_at DESC, k.id`,
      [day, week],
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
      day: { requests: Number(r.day_requests), errors: Number(r.day_errors) },
      week: { requests: Number(r.week_requests), errors: Number(r.week_errors) },
    }));
  }

  /** Id and name of every key (the documents filter). */
  async names(): Promise<{ id: string; name: string }[]> {
    return this.db.query<{ id: string; name: string }>('SELECT id, name FROM api_keys ORDER BY name, id');
  }
}
