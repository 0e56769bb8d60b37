import type { Queryable } from '@app/shared';

/** What an `Idempotency-Key` is bound to. */
export interface IdempotencyRecord {
  requestHash: string;
  documentId: string;
}

/** SQL of table `idempotency_keys` (migration 008). */
export class IdempotencyRepo {
  constructor(private readonly db: Queryable) {}

  /** The live binding of `key` for the API key (created at or after `since`), or null. */
  async find(apiKeyId: string, key: string, since: Date): Promise<IdempotencyRecord | null> {
    const rows = await this.db.query<{ request_hash: string; document_id: string }>(
      'SELECT request_hash, document_id FROM idempotency_keys WHERE api_key_id = $1 AND key = $2 AND created_at >= $3',
      [apiKeyId, key, since],
    );
    return rows[0] ? { requestHash: rows[0].request_hash, documentId: rows[0].document_id } : null;
  }

  /**
   * Binds `key` to a new document, replacing an expired binding (created before `since`); false when a live one
   * exists (a concurrent request with the same key won), so the caller's transaction must not commit.
   */
  async bind(apiKeyId: string, key: string, rec: IdempotencyRecord, now: Date, since: Date): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO idempotency_keys (api_key_id, key, request_hash, document_id, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (api_key_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, document_id = EXCLUDED.document_id,
         created_at = EXCLUDED.created_at WHERE idempotency_keys.created_at < $6
       RETURNING key`,
      [apiKeyId, key, rec.requestHash, rec.documentId, now, since],
    );
    return rows.length > 0;
  }

  async deleteForDocument(documentId: string): Promise<void> {
    await this.db.query('DELETE FROM idempotency_keys WHERE document_id = $1', [documentId]);
  }
}
