import { RecognitionFailedError, type RecognitionEngine } from './engine.port.js';

/**
 * Stand-in used when the local OCR engine module cannot be loaded: health `unavailable` (so /health answers 503)
 * and every recognition fails cleanly with `engine_unavailable`.
 */
export function createUnavailableEngine(why: string): RecognitionEngine {
  return {
    name: 'unavailable',
    async recognize() {
      throw new RecognitionFailedError('engine_unavailable', `local OCR engine not available: ${why}`);
    },
    async health() {
      return 'unavailable';
    },
  };
}

/**
 * Loads the local OCR engine (`./ocr/index.js`, `createLocalOcrEngine`) built by its own module. The import is
 * dynamic so this package typechecks and runs whether or not that module is present.
 */
export async function loadLocalEngine(opts: { concurrency?: number } = {}): Promise<RecognitionEngine> {
  const path = './ocr/index.js';
  try {
    const mod = (await import(/* @vite-ignore */ path)) as { createLocalOcrEngine?: (o?: { concurrency?: number }) => RecognitionEngine };
    if (typeof mod.createLocalOcrEngine !== 'function') return createUnavailableEngine('createLocalOcrEngine is not exported');
    return mod.createLocalOcrEngine(opts);
  } catch (err) {
    return createUnavailableEngine((err as Error).message);
  }
}
