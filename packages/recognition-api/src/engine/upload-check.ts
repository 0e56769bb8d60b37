import { isPdf } from './pdf/pdf-pages.js';
import { checkImage, type CheckedImage } from './image-check.js';
import { checkPdf } from './pdf-check.js';

/**
 * The check of one uploaded file, by its content: a PDF (`%PDF-` header) goes to {@link checkPdf}, anything else to
 * {@link checkImage} (JPEG, PNG, WebP, TIFF, BMP). Runs in the worker pool (engine/pool), never on the event loop.
 * @throws ImageRejected with a caller-safe reason (422 VALIDATION_ERROR naming the file).
 */
export function checkUpload(buf: Buffer): Promise<CheckedImage> {
  return isPdf(buf) ? checkPdf(buf) : checkImage(buf);
}
