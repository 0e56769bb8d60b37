import type { FastifyRequest } from 'fastify';
import { invalid } from '../errors.js';
import { MAX_IMAGE_BYTES, MAX_PAGES } from '../engine/image-check.js';

/** At most 5 images per recognition (Spec: Limits); a PDF or multi-page TIFF counts each page. */
export const MAX_IMAGES = MAX_PAGES;

/** Options for `@fastify/multipart`: the spec's limits enforced while streaming, before anything is stored. */
export const MULTIPART_LIMITS = {
  fileSize: MAX_IMAGE_BYTES,
  // One more than allowed so the sixth file is seen and refused by name, not by the plugin's generic error.
  files: MAX_IMAGES + 1,
  fields: 20,
  // Bytes; 500 Cyrillic characters of callback_url are up to 1000 UTF-8 bytes, so this leaves room.
  fieldSize: 4096,
  parts: 40,
};

/**
 * The raw upload: the `images[]` files in order (with their client names, for messages only, and the part's
 * declared `Content-Type`, which tells a formalized XML file) and text fields.
 */
export interface RawUpload {
  files: { name: string; bytes: Buffer; type?: string }[];
  fields: Record<string, string>;
}

const FILE_FIELDS = new Set(['images[]', 'images']);

/**
 * Reads a multipart/form-data recognition request into memory (at most 5 × 10 MB). Throws 422
 * VALIDATION_ERROR naming the problem for: a non-multipart body, an unknown file field, a sixth file, a file over
 * 10 MB (10 × 1024 × 1024 bytes), a repeated or over-long text field. Zero files is checked by the caller.
 */
export async function readUpload(request: FastifyRequest): Promise<RawUpload> {
  if (!request.isMultipart()) throw invalid('images[]', 'the request must be multipart/form-data with 1 to 5 images[] files');
  const out: RawUpload = { files: [], fields: {} };
  try {
    await readParts(request, out);
  } catch (err) {
    throw pluginError(err) ?? err;
  }
  return out;
}

/** Maps @fastify/multipart limit errors (413 etc. by default) to the spec's 422 naming the parameter. */
function pluginError(err: unknown): Error | null {
  switch ((err as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return invalid('images[]', `each file must be at most 10 MB (${MAX_IMAGE_BYTES} bytes)`);
    case 'FST_FILES_LIMIT':
      return invalid('images[]', `at most ${MAX_IMAGES} files per request`);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return invalid('request', 'too many multipart parts');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return invalid('images[]', 'the request must be multipart/form-data');
    default:
      return null;
  }
}

async function readParts(request: FastifyRequest, out: RawUpload): Promise<void> {
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (!FILE_FIELDS.has(part.fieldname)) {
        part.file.resume();
        throw invalid(part.fieldname, 'unexpected file field; send pages as images[]');
      }
      if (out.files.length >= MAX_IMAGES) {
        part.file.resume();
        throw invalid('images[]', `at most ${MAX_IMAGES} files per request`);
      }
      const bytes = await part.toBuffer();
      out.files.push({ name: part.filename || `file ${out.files.length + 1}`, bytes, type: part.mimetype });
    } else {
      if (part.fieldnameTruncated || part.valueTruncated) throw invalid(part.fieldname, 'value is too long');
      if (part.fieldname in out.fields) throw invalid(part.fieldname, 'given more than once');
      out.fields[part.fieldname] = String(part.value);
    }
  }
}
