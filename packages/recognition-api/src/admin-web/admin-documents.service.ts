import type { FileStore } from '../storage/file-store.js';
import { buildAccountingExport } from '../export/accounting-export.js';
import type { Warning } from '../engine/validate/validate.js';
import { AdminError } from '@app/admin-web';
import { pagePreview } from './page-preview.js';
import { sourceFileKey } from '../documents/formalized-intake.js';
import { formalizedCharset } from '../formalized/index.js';
import { warningText } from './warning-text.js';
import type { AdminDocumentFilter, AdminDocumentRow, AdminDocumentsRepo } from './admin-documents.repo.js';

export const PAGE_SIZE = 20;
const STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
const TYPES = ['upd', 'torg12', 'invoice'] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The filter form's values as typed (echoed back into the form). */
export interface FilterValues {
  status: string;
  type: string;
  key: string;
  from: string;
  to: string;
  review: boolean;
  /** Search text (client_ref, number, INN, counterparty name). */
  q: string;
  page: number;
}

/**
 * A calendar day of the business zone (Moscow, UTC+3 all year since 2014) as an instant: `from` its start,
 * `to` the start of the next day, so "по 30.11" includes the whole of the 30th.
 */
function dayStart(raw: string, next: boolean): Date | null {
  if (!DATE.test(raw)) return null;
  const t = new Date(`${raw}T00:00:00+03:00`);
  if (Number.isNaN(t.getTime()) || new Date(t.getTime() + 3 * 3_600_000).toISOString().slice(0, 10) !== raw) return null;
  return next ? new Date(t.getTime() + 86_400_000) : t;
}

/**
 * Parses the list's query. Invalid values are dropped and named in `errors` (Russian), so a bad link still shows
 * a list and says what was ignored.
 */
export function parseFilter(q: Record<string, unknown>): { filter: AdminDocumentFilter; values: FilterValues; errors: string[] } {
  const s = (k: string) => (typeof q[k] === 'string' ? (q[k] as string).trim() : '');
  const errors: string[] = [];
  const values: FilterValues = {
    status: s('status'),
    type: s('type'),
    key: s('key'),
    from: s('from'),
    to: s('to'),
    review: s('review') === '1',
    q: s('q').slice(0, 200),
    page: 1,
  };
  const filter: AdminDocumentFilter = { limit: PAGE_SIZE, offset: 0 };
  if (values.status) {
    if ((STATUSES as readonly string[]).includes(values.status)) filter.status = values.status as AdminDocumentFilter['status'];
    else {
      errors.push('Неизвестный статус — фильтр по статусу не применён.');
      values.status = '';
    }
  }
  if (values.type) {
    if ((TYPES as readonly string[]).includes(values.type)) filter.type = values.type;
    else {
      errors.push('Неизвестный тип документа — фильтр по типу не применён.');
      values.type = '';
    }
  }
  if (values.key) {
    if (/^key_[0-9a-f]{1,64}$/.test(values.key)) filter.keyId = values.key;
    else {
      errors.push('Неизвестный ключ — фильтр по ключу не применён.');
      values.key = '';
    }
  }
  for (const [name, label] of [
    ['from', 'Дата «с»'],
    ['to', 'Дата «по»'],
  ] as const) {
    if (!values[name]) continue;
    const d = dayStart(values[name], name === 'to');
    if (d) filter[name] = d;
    else {
      errors.push(`${label}: нужна дата в формате ГГГГ-ММ-ДД — фильтр не применён.`);
      values[name] = '';
    }
  }
  if (filter.from && filter.to && filter.from >= filter.to) errors.push('Дата «с» позже даты «по»: документов в таком периоде нет.');
  if (values.review) filter.review = true;
  if (values.q) filter.text = values.q;
  const page = s('page');
  if (page) {
    const n = /^\d{1,6}$/.test(page) ? Number(page) : 0;
    if (n >= 1) values.page = n;
    else errors.push('Номер страницы должен быть целым числом от 1 — показана первая страница.');
  }
  filter.offset = (values.page - 1) * PAGE_SIZE;
  return { filter, values, errors };
}

/** Warnings (in Russian) grouped by the field path they concern (`seller.inn`, `items[2].nds_amount`, `pages[0]`). */
export function warningsByField(warnings: Warning[] | null): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const w of warnings ?? []) m.set(w.field, [...(m.get(w.field) ?? []), warningText(w.message)]);
  return m;
}

/** The documents section (docs/admin-panel.md): list with filters and paging, one document, its pages, exports. */
export class AdminDocumentsService {
  constructor(
    private readonly deps: {
      docs: AdminDocumentsRepo;
      files: FileStore;
      deleteDocument: (apiKeyId: string, id: string) => Promise<unknown>;
      /** Re-queues a failed document (documents-admin.queries.ts); false when it is not failed. */
      retryFailed: (id: string) => Promise<boolean>;
    },
  ) {}

  /**
   * Sends a failed document through the queue again, as a new upload goes (its previous callback is dropped, so the
   * new outcome is called back). @throws AdminError NOT_FOUND, VALIDATION when it is not failed.
   */
  async retry(id: string): Promise<AdminDocumentRow> {
    const doc = await this.get(id);
    if (doc.status !== 'failed' || !(await this.deps.retryFailed(doc.id)))
      throw new AdminError('VALIDATION', 'Повторить можно только документ со статусом «Ошибка».');
    return doc;
  }

  /**
   * Deletes a document of any key the way the API's DELETE does (Spec: DELETE /api/v1/documents/{id}: the row,
   * its pending callback, its files). @throws AdminError NOT_FOUND.
   */
  async remove(id: string): Promise<void> {
    const doc = await this.get(id);
    await this.deps.deleteDocument(doc.apiKeyId, doc.id);
  }

  async list(q: Record<string, unknown>) {
    const { filter, values, errors } = parseFilter(q);
    const { rows, total } = await this.deps.docs.list(filter);
    return { rows, total, values, errors, pages: Math.max(1, Math.ceil(total / PAGE_SIZE)) };
  }

  /** @throws AdminError NOT_FOUND. */
  async get(id: string): Promise<AdminDocumentRow> {
    const doc = /^doc_[a-z0-9]{1,64}$/.test(id) ? await this.deps.docs.get(id) : null;
    if (!doc) throw new AdminError('NOT_FOUND', 'Документ не найден (возможно, он удалён).');
    return doc;
  }

  /**
   * Page `n` (1-based) of a document as a browser can show it (page-preview.ts: TIFF and PDF become PNG): bytes
   * and content type. @throws AdminError NOT_FOUND.
   */
  async page(id: string, n: number): Promise<{ bytes: Buffer; type: string }> {
    const doc = await this.get(id);
    const key = Number.isInteger(n) && n >= 1 ? doc.files[n - 1] : undefined;
    if (!key) throw new AdminError('NOT_FOUND', 'У документа нет такой страницы.');
    const ext = key.split('.').pop()!.toLowerCase();
    const type =
      {
        jpg: 'image/jpeg',
        jpeg: 'image/jpeg',
        png: 'image/png',
        webp: 'image/webp',
        tif: 'image/tiff',
        tiff: 'image/tiff',
        bmp: 'image/bmp',
        pdf: 'application/pdf',
      }[ext] ?? 'application/octet-stream';
    try {
      return await pagePreview(await this.deps.files.get(key), type);
    } catch (err) {
      // Image retention (documents/image-retention.ts) deletes the images of old documents; the data stays.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        throw new AdminError('NOT_FOUND', 'Изображение страницы удалено по сроку хранения; распознанные данные сохранены.');
      throw err;
    }
  }

  /**
   * The formalized XML of an uploaded or imported formalized document, byte for byte as received, with its
   * `Content-Type` (`application/xml; charset=` as its declaration says). @throws AdminError NOT_FOUND for a
   * document read from page images, or when the file is not stored (imported before files were kept, or removed
   * by image retention; the data stays).
   */
  async sourceXml(id: string): Promise<{ bytes: Buffer; type: string }> {
    const doc = await this.get(id);
    if (doc.source?.content !== 'formalized_xml')
      throw new AdminError('NOT_FOUND', 'Документ распознан по изображениям страниц: исходного XML у него нет.');
    try {
      const bytes = await this.deps.files.get(sourceFileKey(doc.id));
      return { bytes, type: `application/xml; charset=${formalizedCharset(bytes)}` };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        throw new AdminError(
          'NOT_FOUND',
          'Исходный XML не сохранён (документ получен до того, как файлы стали храниться, или удалён по сроку хранения); данные документа сохранены.',
        );
      throw err;
    }
  }

  /** The export of a completed document (Spec: GET /documents/{id}/export). @throws AdminError NOT_FOUND / VALIDATION. */
  async export(id: string, format: string): Promise<unknown> {
    const doc = await this.get(id);
    if (doc.status !== 'completed') throw new AdminError('VALIDATION', 'Выгрузка доступна только для распознанных документов (статус «Распознан»).');
    if (format === 'accounting') return buildAccountingExport(doc);
    if (format === 'json') return doc.data;
    throw new AdminError('VALIDATION', 'Формат выгрузки: json или accounting.');
  }
}
