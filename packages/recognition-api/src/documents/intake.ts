import { invalid } from '../errors.js';
import { RecognitionFailedError } from '../engine/engine.port.js';
import { ImageRejected, type CheckedImage } from '../engine/image-check.js';
import { MAX_IMAGES, type RawUpload } from './multipart-upload.js';

/**
 * The upload check of one file, run by the worker pool in production (engine/pool) so no decode happens on the
 * API's event loop. `lane` picks the pool: `high` requests use the high lane's own threads, so they never wait
 * behind queued work. Aborted by `signal` (the high request's deadline).
 * @throws ImageRejected (caller-safe reason), RecognitionFailedError `timeout`.
 */
export type ImageChecker = (bytes: Buffer, lane: 'high' | 'background', signal?: AbortSignal) => Promise<CheckedImage>;

/** The deadline of a high request passed before its images were even checked: nothing was stored. */
export class DeadlineBeforeStore extends Error {}

/**
 * Checks every uploaded file, in order, through `check`. Throws 422 VALIDATION_ERROR `images[i]: "name": why`
 * for the first bad file, and `images[]: …` when the pages of all files (a PDF counts its pages, an image one)
 * exceed the spec's 5 images per recognition; {@link DeadlineBeforeStore} when the deadline passes meanwhile.
 */
export async function checkUploadedImages(
  files: RawUpload['files'],
  check: ImageChecker,
  lane: 'high' | 'background',
  signal?: AbortSignal,
): Promise<CheckedImage[]> {
  const checked: CheckedImage[] = [];
  let pages = 0;
  for (const [i, f] of files.entries()) {
    try {
      const c = await check(f.bytes, lane, signal);
      pages += c.pages ?? 1;
      if (pages > MAX_IMAGES)
        throw invalid(
          'images[]',
          `at most ${MAX_IMAGES} pages per request (a PDF or a multi-page TIFF counts each page); "${f.name}" brings the total to ${pages}`,
        );
      checked.push(c);
    } catch (err) {
      if (err instanceof ImageRejected) throw invalid(`images[${i}]`, `"${f.name}": ${err.message}`);
      if (signal?.aborted || (err instanceof RecognitionFailedError && err.reason === 'timeout'))
        throw new DeadlineBeforeStore('deadline passed during the upload check');
      throw err;
    }
  }
  return checked;
}
