import type { Queryable } from '@app/shared';
import { normalizeRequestId, type RequestIdStore } from './request-id-store.port.js';

/**
 * Single-use store of X-Request-ID per key, in the shared database so every instance sees it (the default store;
 * expired ids are deleted in batches by retention/retention.ts).
 * Spec: Authentication — "a reused value for the same key gives 401"; kept at least twice the skew window.
 */
export class RequestIdsRepo implements RequestIdStore {
  constructor(private readonly db: Queryable) {}

  /**
   * Records the id as used until `expiresAt`. Returns false when it was already used and has not expired.
   * One statement, so two instances racing on the same id cannot both win. The id is stored in lower case
   * (`normalizeRequestId`). Throws on database failure.
   */
  async consume(apiKey: string, requestId: string, now: Date, expiresAt: Date): Promise<boolean> {
    const rows = await this.db.query<{ ok: 1 }>(
      `INSERT INTO request_ids (api_key, request_id, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (api_key, request_id) DO UPDATE SET expires_at = EXCLUDED.expires_at
         WHERE request_ids.expires_at < $4
       RETURNING 1 AS ok`,
      [apiKey, normalizeRequestId(requestId), expiresAt.toISOString(), now.toISOString()],
      { name: 'request_ids_consume' }, // every signed request: prepared once per connection
    );
    return rows.length === 1;
  }
}
