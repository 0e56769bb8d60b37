import type { Queryable } from '@app/shared';
import { NEEDS_REVIEW_SQL } from '../documents/documents-admin.queries.js';
import { toRecord } from '../documents/documents.repo.js';
import type { DocumentRecord, DocumentStatus } from '../documents/documents.types.js';

const CYRILLIC_UPPER = 'АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ';
const CYRILLIC_LOWER = 'абвгдеёжзийклмнопрстуфхцчшщъыьэюя';

/**
 * SQL that folds the case of the text `expr` on any database locale (docs/admin-panel.md, "Документы"): `lower()`
 * folds only ASCII when the database's LC_CTYPE is `C` (measured: PostgreSQL 15 `lower('Ромашка' COLLATE "C")` is
 * `Ромашка`), so the Russian alphabet is folded explicitly by `translate()`, which maps characters, not bytes, and
 * does not depend on the locale. Letters of other scripts fold only where the locale folds them.
 */
export const foldCaseSql = (expr: string): string => `translate(lower(${expr}), '${CYRILLIC_UPPER}', '${CYRILLIC_LOWER}')`;

/** Filters of the documents section; every one optional. `from`/`to` bound `created_at` as [from, to). */
export interface AdminDocumentFilter {
  status?: DocumentStatus;
  type?: string;
  keyId?: string;
  from?: Date;
  to?: Date;
  /** Only completed documents with `manual_check_recommended` (NEEDS_REVIEW_SQL). */
  review?: boolean;
  /**
   * Text search, case-insensitive substring: `client_ref`, the document number, seller/buyer INN or name of the
   * recognised data (docs/admin-panel.md).
   */
  text?: string;
  limit: number;
  offset: number;
}

/** A document row of the list, with the name of its key. */
export type AdminDocumentRow = DocumentRecord & { keyName: string };

/** Read-side SQL of the documents section: every key's documents (the API's repo always filters by owner). */
export class AdminDocumentsRepo {
  constructor(private readonly db: Queryable) {}

  async list(f: AdminDocumentFilter): Promise<{ rows: AdminDocumentRow[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, v: unknown) => {
      params.push(v);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (f.status) add('d.status = ?', f.status);
    if (f.type) add('d.document_type = ?', f.type);
    if (f.keyId) add('d.api_key_id = ?', f.keyId);
    if (f.from) add('d.created_at >= ?', f.from);
    if (f.to) add('d.created_at < ?', f.to);
    if (f.review) where.push(NEEDS_REVIEW_SQL);
    if (f.text) {
      // LIKE metacharacters of the search are literal; one parameter used in every column, folded like them.
      params.push(`%${f.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      const p = foldCaseSql(`$${params.length}`);
      where.push(
        `(${[
          'd.client_ref',
          "d.data->'document'->>'number'",
          "d.data->'seller'->>'inn'",
          "d.data->'buyer'->>'inn'",
          "d.data->'seller'->>'name'",
          "d.data->'buyer'->>'name'",
        ]
          .map((col) => `${foldCaseSql(col)} LIKE ${p}`)
          .join(' OR ')})`,
      );
    }
    const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM documents d ${w}`, params);
    const rows = await this.db.query<Parameters<typeof toRecord>[0] & { key_name: string }>(
      `SELECT d.*, k.name AS key_name FROM documents d JOIN api_keys k ON k.id = d.api_key_id ${w}
        ORDER BY d.created_at DESC, d.id DESC LIMIT ${Number(f.limit)} OFFSET ${Number(f.offset)}`,
      params,
    );
    return { rows: rows.map((r) => ({ ...toRecord(r), keyName: r.key_name })), total: total[0]!.n };
  }

  async get(id: string): Promise<AdminDocumentRow | null> {
    const r = (
      await this.db.query<Parameters<typeof toRecord>[0] & { key_name: string }>(
        'SELECT d.*, k.name AS key_name FROM documents d JOIN api_keys k ON k.id = d.api_key_id WHERE d.id = $1',
        [id],
      )
    )[0];
    return r ? { ...toRecord(r), keyName: r.key_name } : null;
  }
}
