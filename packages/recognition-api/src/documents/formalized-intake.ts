import type { Clock, IdSource, Queryable } from '@app/shared';
import { CallbacksRepo } from '../callbacks/callbacks.repo.js';
import { buildCallbackPayload } from '../callbacks/callback-payload.js';
import { invalid } from '../errors.js';
import { validateRecognizedData } from '../engine/validate/validate.js';
import { FormalizedXmlError, readFormalized, type FormalizedDocument } from '../formalized/index.js';
import { DocumentsRepo } from './documents.repo.js';
import type { DocumentRecord, DocumentSource } from './documents.types.js';
import { newRecord, type RecordRequest } from './new-record.js';
import type { FileStore } from '../storage/file-store.js';

/** Declared types of a formalized XML file (multipart part `Content-Type`, or the operator's content type). */
const XML_TYPES = new Set(['application/xml', 'text/xml']);
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Is this file a formalized XML document rather than a page image or PDF? Its declared type is
 * `application/xml`/`text/xml` (parameters such as `charset` ignored), or its first non-blank byte is `<` (no
 * image or PDF format starts so). Whether it is a *supported* formalized document is {@link readFormalizedFile}'s
 * question.
 */
export function isFormalizedXml(bytes: Buffer, type?: string): boolean {
  const mime = type?.split(';')[0]?.trim().toLowerCase();
  if (mime && XML_TYPES.has(mime)) return true;
  const body = bytes.subarray(0, UTF8_BOM.length).equals(UTF8_BOM) ? bytes.subarray(UTF8_BOM.length) : bytes;
  for (const b of body.subarray(0, 64)) {
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
    return b === 0x3c;
  }
  return false;
}

/**
 * Reads a formalized file (formalized/read.ts: a UPD / invoice or a ТОРГ-12 seller title) for a request that asked
 * for `requestedType`.
 * @throws ApiError 422 VALIDATION_ERROR `<param>: "<name>" <code>: <reason>` for a file that is oversized (5 MiB),
 *   wrongly encoded, carries a DTD, is malformed, has an unknown `КНД` or an unsupported shape; also when the
 *   requested `document_type` is not `auto` and differs from the file's (its `Функция`, or `torg12` by its КНД).
 */
export function readFormalizedFile(bytes: Buffer, name: string, param: string, requestedType: string): FormalizedDocument {
  let read: FormalizedDocument;
  try {
    read = readFormalized(bytes);
  } catch (err) {
    if (err instanceof FormalizedXmlError) throw invalid(param, `"${name}" is not a readable formalized document (${err.code}): ${err.message}`);
    throw err;
  }
  if (requestedType !== 'auto' && requestedType !== read.documentType)
    throw invalid(
      'document_type',
      `"${name}" is a formalized ${read.documentType} (${read.function ? `Функция ${read.function}` : `КНД ${read.knd}`}), not ${requestedType}; send auto or ${read.documentType}`,
    );
  return read;
}

/** What a formalized document record is built from. */
export interface FormalizedRecordInput {
  id: string;
  apiKeyId: string;
  request: RecordRequest;
  read: FormalizedDocument;
  source: DocumentSource;
  now: Date;
}

/**
 * A completed document record of a formalized file: every field is the file's, so confidence is 1.00; warnings are
 * only the spec's validation findings on the data (line math, totals, INN, date, VAT rate), never guesses.
 * `processing_time_ms` is 0 (no recognition ran); no files are stored (the data is the whole document).
 */
export function formalizedRecord(input: FormalizedRecordInput): DocumentRecord {
  const { now, read } = input;
  return {
    ...newRecord({ ...input, files: [] }),
    documentType: read.documentType,
    availableAt: now,
    status: 'completed',
    completedAt: now,
    data: read.data,
    confidence: 1,
    warnings: validateRecognizedData(read.data).warnings,
    processingTimeMs: 0,
  };
}

/**
 * Inserts a completed formalized record and, when it has a `callback_url`, its callback row, inside the caller's
 * transaction `q` (so a record never exists without its callback). False when an EDO record of the same key and
 * entity already exists (nothing written).
 */
export async function insertCompleted(q: Queryable, ids: IdSource, clock: Clock, doc: DocumentRecord): Promise<boolean> {
  if (!(await new DocumentsRepo(q).insert(doc))) return false;
  if (doc.callbackUrl)
    await new CallbacksRepo(q).schedule(`cb_${ids.uuid()}`, doc.id, doc.apiKeyId, doc.callbackUrl, buildCallbackPayload(doc), clock.now());
  return true;
}

/**
 * Storage key of a formalized document's file as received (`<id>/source.xml`). It is not a page (`files` stays
 * empty); image retention and DELETE remove it with the document's folder (docs/formalized-upload.md).
 */
export const sourceFileKey = (documentId: string): string => `${documentId}/source.xml`;

/**
 * Stores the formalized file as received, then runs `insert` (the row's transaction). The file is removed again
 * when `insert` throws or returns false (the row was not written), so no file outlives a record that was never
 * made; a crash in between leaves a folder without a row, which the orphan sweep removes.
 */
export async function withSourceFile<T>(files: FileStore, documentId: string, bytes: Buffer, insert: () => Promise<T | false>): Promise<T | false> {
  await files.put(sourceFileKey(documentId), bytes);
  let result: T | false = false;
  try {
    result = await insert();
  } finally {
    if (result === false) await files.removeDocument(documentId).catch(() => {});
  }
  return result;
}
