import type { Queryable } from '@app/shared';
import { FEATURES, type Feature } from './features.js';

/**
 * The switches of each source (`sources.features`, a JSON array of names). Requests read them with the credential
 * (credentials.repo.ts), so a change reaches an instance within the credential cache time (5 s by default).
 */
export class SourceFeaturesRepo {
  constructor(private readonly db: Queryable) {}

  /** The switches that are on, in the order of FEATURES; null when the source does not exist. */
  async get(tenantId: string, source: string): Promise<Feature[] | null> {
    const rows = await this.db.query<{ features: string[] }>(`SELECT features FROM sources WHERE tenant_id = $1 AND source = $2`, [tenantId, source]);
    return rows[0] ? FEATURES.filter((f) => rows[0].features.includes(f)) : null;
  }

  /**
   * Turns switches on and off in one statement (disable wins when a name is in both lists); returns the switches
   * now on, or null when the source does not exist.
   */
  async change(tenantId: string, source: string, enable: Feature[], disable: Feature[]): Promise<Feature[] | null> {
    const rows = await this.db.query<{ features: string[] }>(
      `UPDATE sources
          SET features = COALESCE((SELECT jsonb_agg(DISTINCT f) FROM jsonb_array_elements_text(features || $3::jsonb) AS f
                                    WHERE NOT (f = ANY($4::text[]))), '[]'::jsonb)
        WHERE tenant_id = $1 AND source = $2
        RETURNING features`,
      [tenantId, source, JSON.stringify(enable), disable],
    );
    return rows[0] ? FEATURES.filter((f) => rows[0].features.includes(f)) : null;
  }
}
