import type { Readable } from 'node:stream';
import type { Clock, Db, IdSource } from '@app/shared';
import { checkCallbackUrl, type Resolver } from '../callbacks/callback-url.js';
import { ApiError, invalid } from '../errors.js';
import { MAX_IMAGE_BYTES } from '../engine/image-check.js';
import type { EntityContent } from '../edo/edo.port.js';
import type { FileStore } from '../storage/file-store.js';
import { documentView } from './document-view.js';
import type { DocumentRecordBody } from './documents.schemas.js';
import { DocumentsRepo } from './documents.repo.js';
import { newDocumentId } from './documents.service.js';
import { formalizedRecord, insertCompleted, isFormalizedXml, readFormalizedFile, withSourceFile } from './formalized-intake.js';
import { checkUploadedImages, type ImageChecker } from './intake.js';
import { newRecord } from './new-record.js';
import { parseRecognizeFields } from './recognize-request.js';

/** The operator calls the import needs (EdoService in production). */
export interface EdoContentSource {
  /** The configured box id. @throws ApiError EDO_NOT_CONFIGURED. */
  boxId(): Promise<string>;
  getContent(messageId: string, entityId: string): Promise<EntityContent>;
}

/** Dependencies of {@link EdoImportService}. */
export interface EdoImportDeps {
  db: Db;
  files: FileStore;
  clock: Clock;
  ids: IdSource;
  edo: EdoContentSource;
  checkImage: ImageChecker;
  allowLoopbackCallbacks: boolean;
  resolve: Resolver;
  onQueued?: () => void;
}

/** Body of POST /api/v1/edo/documents/{messageId}/{entityId}/import: the recognition fields, all optional. */
export interface ImportOptions {
  document_type?: string;
  image_quality?: string;
  output_format?: string;
  priority?: string;
  callback_url?: string;
  client_ref?: string;
}

/** What the import answers: 200 the existing record, 201 a formalized one (completed), 202 a queued scan. */
export type ImportResponse = { status: 200 | 201 | 202; body: DocumentRecordBody };

/** Reads a stream into memory; false when it holds more than `limit` bytes (the rest is drained, not kept). */
async function readLimited(body: Readable, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      body.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Import of an e-document operator entity into a document record (docs/formalized-upload.md). The
 * content is fetched through the gateway's port: a formalized XML (UPD / invoice seller title) is read exactly and
 * stored completed (confidence 1.00), its file kept as received; anything else (a scan as PDF or image) is checked like an upload and queued
 * for the recognition engine. The record is the calling key's, with `source: {kind: 'edo', messageId, entityId,
 * boxId}`. One record per key and entity: a repeat returns it (unique index, so concurrent imports make one).
 */
export class EdoImportService {
  constructor(private readonly deps: EdoImportDeps) {}

  /**
   * @throws ApiError 422 VALIDATION_ERROR (body fields; content over 10 MB, an unreadable formalized file or an
   *   unsupported image, naming the entity), EDO_* from the operator (not configured, not found, unavailable).
   */
  async import(apiKeyId: string, messageId: string, entityId: string, body: ImportOptions = {}): Promise<ImportResponse> {
    const req = parseRecognizeFields({ document_type: 'auto', image_quality: 'scan', ...stringFields(body) });
    if (req.priority === 'high') throw invalid('priority', 'an import is answered at once; its scans are queued as normal or batch');
    const boxId = await this.deps.edo.boxId();
    const docs = new DocumentsRepo(this.deps.db);
    const existing = await docs.findEdo(apiKeyId, boxId, messageId, entityId);
    if (existing) return { status: 200, body: documentView(existing) };
    if (req.callbackUrl) await checkCallbackUrl(req.callbackUrl, { allowLoopback: this.deps.allowLoopbackCallbacks, resolve: this.deps.resolve });

    const content = await this.deps.edo.getContent(messageId, entityId);
    const name = content.fileName || entityId;
    const bytes = await readLimited(content.body, MAX_IMAGE_BYTES);
    if (!bytes) throw invalid('entityId', `the content of "${name}" is over 10 MB (${MAX_IMAGE_BYTES} bytes); it cannot be imported`);
    const now = this.deps.clock.now();
    const id = newDocumentId();
    const edo = { kind: 'edo' as const, messageId, entityId, boxId };

    if (isFormalizedXml(bytes, content.contentType)) {
      const read = readFormalizedFile(bytes, name, 'entityId', req.documentType);
      const doc = formalizedRecord({ id, apiKeyId, request: req, read, source: { ...edo, content: 'formalized_xml' }, now });
      const inserted = await withSourceFile(this.deps.files, id, bytes, () =>
        this.deps.db.tx((q) => insertCompleted(q, this.deps.ids, this.deps.clock, doc)),
      );
      return inserted ? { status: 201, body: documentView(doc) } : this.existing(apiKeyId, edo);
    }

    const [checked] = await checkUploadedImages([{ name, bytes }], this.deps.checkImage, 'background').catch((err: unknown) => {
      // checkUploadedImages names the upload field; here the file is the operator entity's.
      if (err instanceof ApiError) throw invalid('entityId', err.message.replace(/^images\[0\]: /, ''));
      throw err;
    });
    const doc = newRecord({ id, apiKeyId, request: req, files: [`${id}/page-1.${checked!.ext}`], source: { ...edo, content: 'pages' }, now });
    await this.deps.files.put(doc.files[0]!, checked!.bytes);
    let inserted = false;
    try {
      inserted = await docs.insert(doc);
    } finally {
      if (!inserted) await this.deps.files.removeDocument(id).catch(() => {});
    }
    if (!inserted) return this.existing(apiKeyId, edo);
    this.deps.onQueued?.();
    return { status: 202, body: documentView(doc) };
  }

  /** The record a concurrent import of the same entity inserted first. */
  private async existing(apiKeyId: string, e: { boxId: string; messageId: string; entityId: string }): Promise<ImportResponse> {
    const doc = await new DocumentsRepo(this.deps.db).findEdo(apiKeyId, e.boxId, e.messageId, e.entityId);
    if (!doc) throw new ApiError('INTERNAL_ERROR', 'the imported document disappeared during the import');
    return { status: 200, body: documentView(doc) };
  }
}

/** Only the string fields of the JSON body (TypeBox then refuses unknown or mistyped ones with the parameter's name). */
function stringFields(body: ImportOptions): Record<string, string> {
  return Object.fromEntries(Object.entries(body ?? {}).map(([k, v]) => [k, v as string]));
}
