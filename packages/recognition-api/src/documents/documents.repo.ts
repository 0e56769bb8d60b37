import type { Queryable } from '@app/shared';
import type { DocumentRecord, DocumentSource, DocumentStatus, ProcessingResult } from './documents.types.js';

interface Row {
  id: string;
  api_key_id: string;
  status: DocumentStatus;
  requested_type: string;
  document_type: string;
  image_quality: string;
  output_format: string;
  priority: string;
  callback_url: string | null;
  client_ref: string | null;
  files: string[];
  created_at: Date;
  available_at: Date;
  lease_until: Date | null;
  lease_token: number;
  attempts: number;
  completed_at: Date | null;
  data: unknown;
  confidence: string | number | null;
  warnings: unknown;
  processing_time_ms: number | null;
  error_code: string | null;
  error_message: string | null;
  source_kind?: 'upload' | 'edo';
  source_content?: 'pages' | 'formalized_xml';
  edo_box_id?: string | null;
  edo_message_id?: string | null;
  edo_entity_id?: string | null;
}

/** The row's source columns (migration 013) as a {@link DocumentSource}. */
function toSource(r: Row): DocumentSource {
  const content = r.source_content ?? 'pages';
  if (r.source_kind === 'edo') return { kind: 'edo', content, messageId: r.edo_message_id!, entityId: r.edo_entity_id!, boxId: r.edo_box_id! };
  return { kind: 'upload', content };
}

const d = (v: Date | string | null): Date | null => (v == null ? null : new Date(v));

/** Maps a `documents` row (snake_case, driver types) to a DocumentRecord. */
export function toRecord(r: Row): DocumentRecord {
  return {
    id: r.id,
    apiKeyId: r.api_key_id,
    status: r.status,
    requestedType: r.requested_type as DocumentRecord['requestedType'],
    documentType: r.document_type as DocumentRecord['documentType'],
    imageQuality: r.image_quality as DocumentRecord['imageQuality'],
    outputFormat: r.output_format as DocumentRecord['outputFormat'],
    priority: r.priority as DocumentRecord['priority'],
    callbackUrl: r.callback_url,
    clientRef: r.client_ref,
    files: r.files,
    createdAt: d(r.created_at)!,
    availableAt: d(r.available_at)!,
    leaseUntil: d(r.lease_until),
    leaseToken: r.lease_token,
    attempts: r.attempts,
    completedAt: d(r.completed_at),
    data: (r.data ?? null) as DocumentRecord['data'],
    // numeric comes back as a string from node-postgres.
    confidence: r.confidence == null ? null : Number(r.confidence),
    warnings: (r.warnings ?? null) as DocumentRecord['warnings'],
    processingTimeMs: r.processing_time_ms,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    source: toSource(r),
  };
}

/** Filters of GET /api/v1/documents; `from`/`to` bound `created_at` (inclusive / exclusive). */
export interface ListFilter {
  apiKeyId: string;
  status?: DocumentStatus;
  type?: string;
  from?: Date;
  to?: Date;
  limit: number;
  offset: number;
}

/** SQL for document rows. Every read takes the owner key, so another key's document is simply not found. */
export class DocumentsRepo {
  constructor(private readonly db: Queryable) {}

  /**
   * Up to `limit` documents finished (`completed` or `failed`) before `before` whose page images are still stored,
   * oldest first (image retention, documents/image-retention.ts).
   */
  async findPurgeable(before: Date, limit: number): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT id FROM documents WHERE files_purged_at IS NULL AND status IN ('completed', 'failed') AND completed_at < $1
       ORDER BY completed_at LIMIT $2`,
      [before.toISOString(), limit],
    );
    return rows.map((r) => r.id);
  }

  /** Marks the documents' page images deleted (`files_purged_at`); the rows keep their data and status. */
  async markFilesPurged(ids: string[], at: Date): Promise<void> {
    await this.db.query(`UPDATE documents SET files_purged_at = $2 WHERE id = ANY($1::text[])`, [ids, at.toISOString()]);
  }

  /**
   * Inserts the row, completed ones with their result (a formalized XML file is read at once). An EDO document
   * whose key already has the same operator entity is not inserted: false then (unique index of migration 013), so
   * concurrent imports make one record.
   */
  async insert(doc: DocumentRecord): Promise<boolean> {
    const src = doc.source ?? { kind: 'upload', content: 'pages' };
    const edo = src.kind === 'edo' ? src : null;
    const rows = await this.db.query(
      `INSERT INTO documents (id, api_key_id, status, requested_type, document_type, image_quality, output_format, priority,
         callback_url, client_ref, files, created_at, available_at, lease_until, attempts, lease_token,
         completed_at, data, confidence, warnings, processing_time_ms,
         source_kind, source_content, edo_box_id, edo_message_id, edo_entity_id)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11::jsonb,$12,$13,$14,$15,$16,$17,$18::json,$19,$20::json,$21,$22,$23,$24,$25,$26)
       ON CONFLICT (api_key_id, edo_box_id, edo_message_id, edo_entity_id) WHERE source_kind = 'edo' DO NOTHING
       RETURNING id`,
      [
        doc.id,
        doc.apiKeyId,
        doc.status,
        doc.requestedType,
        doc.documentType,
        doc.imageQuality,
        doc.outputFormat,
        doc.priority,
        doc.callbackUrl,
        doc.clientRef,
        JSON.stringify(doc.files),
        doc.createdAt,
        doc.availableAt,
        doc.leaseUntil,
        doc.attempts,
        doc.leaseToken,
        doc.completedAt,
        doc.data == null ? null : JSON.stringify(doc.data),
        doc.confidence,
        doc.warnings == null ? null : JSON.stringify(doc.warnings),
        doc.processingTimeMs,
        src.kind,
        src.content,
        edo?.boxId ?? null,
        edo?.messageId ?? null,
        edo?.entityId ?? null,
      ],
    );
    return rows.length > 0;
  }

  /** The key's document imported from this operator entity, if any. */
  async findEdo(apiKeyId: string, boxId: string, messageId: string, entityId: string): Promise<DocumentRecord | null> {
    const rows = await this.db.query<Row>(
      `SELECT * FROM documents WHERE source_kind = 'edo' AND api_key_id = $1 AND edo_box_id = $2 AND edo_message_id = $3 AND edo_entity_id = $4`,
      [apiKeyId, boxId, messageId, entityId],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async get(id: string, apiKeyId: string): Promise<DocumentRecord | null> {
    const rows = await this.db.query<Row>('SELECT * FROM documents WHERE id = $1 AND api_key_id = $2', [id, apiKeyId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async getById(id: string): Promise<DocumentRecord | null> {
    const rows = await this.db.query<Row>('SELECT * FROM documents WHERE id = $1', [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async list(f: ListFilter): Promise<{ rows: DocumentRecord[]; total: number }> {
    const where = ['api_key_id = $1'];
    const params: unknown[] = [f.apiKeyId];
    const add = (sql: string, v: unknown) => {
      params.push(v);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (f.status) add('status = ?', f.status);
    if (f.type) add('document_type = ?', f.type);
    if (f.from) add('created_at >= ?', f.from);
    if (f.to) add('created_at < ?', f.to);
    const w = where.join(' AND ');
    const total = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM documents WHERE ${w}`, params);
    const rows = await this.db.query<Row>(
      `SELECT * FROM documents WHERE ${w} ORDER BY created_at DESC, id DESC LIMIT ${f.limit} OFFSET ${f.offset}`,
      params,
    );
    return { rows: rows.map(toRecord), total: total[0]!.n };
  }

  /** Which of `ids` have a document row (the orphan file sweep). */
  async existing(ids: string[]): Promise<Set<string>> {
    const rows = await this.db.query<{ id: string }>('SELECT id FROM documents WHERE id = ANY($1::text[])', [ids]);
    return new Set(rows.map((r) => r.id));
  }

  async delete(id: string, apiKeyId: string): Promise<DocumentRecord | null> {
    const rows = await this.db.query<Row>('DELETE FROM documents WHERE id = $1 AND api_key_id = $2 RETURNING *', [id, apiKeyId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /**
   * Records the outcome if this holder still owns the document (status `processing` under the holder's
   * `leaseToken`); false when it was deleted, finished, released or claimed by another worker after a lease
   * expiry, so the caller must not send a callback (docs/decisions.md "Job fencing").
   */
  async finish(id: string, leaseToken: number, result: ProcessingResult, completedAt: Date): Promise<boolean> {
    const rows = result.ok
      ? await this.db.query(
          `UPDATE documents SET status = 'completed', document_type = $2, data = $3::json, confidence = $4, warnings = $5::json,
             processing_time_ms = $6, completed_at = $7, lease_until = NULL
             WHERE id = $1 AND status = 'processing' AND lease_token = $8 RETURNING id`,
          [
            id,
            result.documentType,
            JSON.stringify(result.data),
            result.confidence,
            JSON.stringify(result.warnings),
            result.processingTimeMs,
            completedAt,
            leaseToken,
          ],
        )
      : await this.db.query(
          `UPDATE documents SET status = 'failed', error_code = $2, error_message = $3, processing_time_ms = $4, completed_at = $5,
             lease_until = NULL WHERE id = $1 AND status = 'processing' AND lease_token = $6 RETURNING id`,
          [id, result.code, result.message, result.processingTimeMs, completedAt, leaseToken],
        );
    return rows.length > 0;
  }

  /**
   * Puts a `failed` document back in the queue as a new upload would be (`queued`, due `now`, a batch one at
   * `batchDueAt`, the next quarter hour), with its attempts, error and isolation cleared; false when it is not (or
   * no longer) failed. The lease token moves on, so a late write of a holder of the old run matches nothing.
   * Not filtered by owner: the admin panel's retry.
   */
  async requeueFailed(id: string, now: Date, batchDueAt: Date): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE documents SET status = 'queued',
              available_at = CASE WHEN priority = 'batch' THEN $3::timestamptz ELSE $2::timestamptz END,
              lease_until = NULL, lease_token = lease_token + 1, attempts = 0, isolate = false, claimed_alone = false,
              completed_at = NULL, processing_time_ms = NULL, error_code = NULL, error_message = NULL
        WHERE id = $1 AND status = 'failed' RETURNING id`,
      [id, now, batchDueAt],
    );
    return rows.length > 0;
  }
}
