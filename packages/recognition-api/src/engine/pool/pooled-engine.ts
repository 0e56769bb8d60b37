import type { Clock } from '@app/shared';
import type { EngineHealth, RecognitionEngine } from '../engine.port.js';
import { listLanguages } from '../ocr/tesseract.js';
import type { RecognitionPool } from './recognition-pool.js';

/** How long a health probe result is reused (GET /health must not spawn a process per request). */
export const HEALTH_TTL_MS = 30_000;

/**
 * Caches an async probe for `ttlMs` on the injected clock; concurrent callers share one probe in flight.
 * Used for the engine health of GET /api/v1/health (docs/decisions.md "Engine health probe").
 */
export function cachedProbe(probe: () => Promise<EngineHealth>, clock: Clock, ttlMs = HEALTH_TTL_MS): () => Promise<EngineHealth> {
  let value: { at: number; state: EngineHealth } | null = null;
  let inFlight: Promise<EngineHealth> | null = null;
  return async () => {
    const now = clock.now().getTime();
    if (value && now - value.at < ttlMs) return value.state;
    inFlight ??= probe()
      .catch((): EngineHealth => 'unavailable')
      .then((state) => {
        value = { at: clock.now().getTime(), state };
        inFlight = null;
        return state;
      });
    return inFlight;
  };
}

/**
 * The local OCR engine's health probe: `tesseract --list-langs` lists `rus` and every language the pools read
 * with (RECOGNITION_OCR_LANGUAGES, e.g. `eng` for `rus+eng`).
 */
export const tesseractProbe =
  (languages = 'rus', tesseractPath?: string) =>
  async (): Promise<EngineHealth> => {
    const langs = await listLanguages(tesseractPath);
    const needed = new Set(['rus', ...languages.split('+')]);
    return langs && [...needed].every((l) => langs.includes(l)) ? 'ok' : 'unavailable';
  };

/**
 * The local OCR engine as a RecognitionEngine whose every call runs on `pool` (worker threads), named
 * `tesseract`; `health` is the shared cached probe.
 */
export function pooledOcrEngine(pool: RecognitionPool, health: () => Promise<EngineHealth>): RecognitionEngine {
  return { name: 'tesseract', recognize: (input) => pool.recognize(input), health };
}
