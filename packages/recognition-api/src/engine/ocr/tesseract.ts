import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { RecognitionFailedError } from '../engine.port.js';

/** How to call the binary: path (default `tesseract` on PATH) and the abort signal of the request. */
export interface TesseractCall {
  tesseractPath?: string;
  signal?: AbortSignal;
  /**
   * Scheduling niceness of the process (0 normal, 10 background): queued work runs niced so a `priority=high`
   * request's Tesseract gets the CPU first on a busy machine.
   */
  niceness?: number;
  /** Tesseract languages of the page read (`-l`); default `rus+eng` (page-ocr.ts). */
  languages?: string;
  /**
   * Address-space limit of the process in MB (util-linux `prlimit --as`), so a page that makes Tesseract's native
   * memory run away kills only that Tesseract, never the worker process and the documents it shares (docs/decisions.md,
   * "Processing and queue"). Absent or 0: no limit. Measured: a scanned A4 invoice page peaks at ~75 MB resident.
   */
  memoryMb?: number;
  /** Where Tesseract takes its models from (`--tessdata-dir`); absent: the installed tessdata (photo-model.ts). */
  tessdataDir?: string;
}

/**
 * Set on every call: no second reading of a line inverted. Tesseract 5 reads each line it is unsure of once more as
 * white on black and keeps the surer of the two; the three forms print no light text on dark, so on a phone photo,
 * where many lines are unsure, that only spends time (a page read 3.54 → 3.37 s) and now and then swaps one misread
 * of a smudge for another. On the development set every tier had as many fields wrong with it as without
 * (docs/recognition-photo.md "Session 2026-12-01 (3)").
 */
export const NO_INVERTED_LINES = ['-c', 'tessedit_do_invert=0'];

/**
 * Runs `tesseract stdin stdout <args>` with the image on stdin, without a shell, single-threaded
 * (`OMP_THREAD_LIMIT=1`: OpenMP threads only contend when pages already run in parallel), and with
 * {@link NO_INVERTED_LINES}. Resolves stdout.
 * @throws RecognitionFailedError `timeout` when the signal aborts, `engine_unavailable` when the binary is
 *   missing, `engine_error` on a non-zero exit.
 */
export function runTesseract(image: Buffer, args: string[], call: TesseractCall = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    if (call.signal?.aborted) return reject(new RecognitionFailedError('timeout', 'recognition aborted'));
    const bin = call.tesseractPath ?? 'tesseract';
    const argv = [...(call.tessdataDir ? ['--tessdata-dir', call.tessdataDir] : []), ...NO_INVERTED_LINES, ...args];
    const limited = call.memoryMb ? (['prlimit', [`--as=${call.memoryMb * 1024 * 1024}`, '--', bin, 'stdin', 'stdout', ...argv]] as const) : null;
    const child = spawn(limited ? limited[0] : bin, limited ? [...limited[1]] : ['stdin', 'stdout', ...argv], {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      signal: call.signal,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (call.niceness && child.pid) {
      try {
        setPriority(child.pid, call.niceness);
      } catch {
        // Not permitted here (some containers): the process just runs at normal priority.
      }
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.stdin.on('error', () => undefined); // EPIPE when tesseract exits early; the exit code tells why
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.name === 'AbortError') reject(new RecognitionFailedError('timeout', 'recognition aborted'));
      else if (e.code === 'ENOENT')
        reject(new RecognitionFailedError('engine_unavailable', `tesseract not found (${call.tesseractPath ?? 'tesseract'})`));
      else reject(new RecognitionFailedError('engine_error', `tesseract failed to start: ${e.message}`));
    });
    child.on('close', (code, killedBy) => {
      if (call.signal?.aborted) return reject(new RecognitionFailedError('timeout', 'recognition aborted'));
      // Killed from outside (shutdown, OOM killer): not the document's fault, so a worker retries it later.
      if (code === null) return reject(new RecognitionFailedError('engine_unavailable', `tesseract was killed (${killedBy ?? 'signal'})`));
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new RecognitionFailedError('engine_error', `tesseract exited with ${code}: ${Buffer.concat(err).toString('utf8').slice(0, 300)}`));
    });
    child.stdin.end(image);
  });
}

/**
 * The call with an abort signal of its own joined to the request's: `stop()` kills only the processes started with
 * the returned call (readings run side by side, one no longer needed), while the request's timeout still ends them.
 */
export function stoppable(call: TesseractCall): { call: TesseractCall; stop: () => void } {
  const own = new AbortController();
  return { call: { ...call, signal: call.signal ? AbortSignal.any([call.signal, own.signal]) : own.signal }, stop: () => own.abort() };
}

/** Languages Tesseract reports (`tesseract --list-langs`), or null when the binary cannot run. */
export function listLanguages(tesseractPath = 'tesseract'): Promise<string[] | null> {
  return new Promise((resolve) => {
    const child = spawn(tesseractPath, ['--list-langs'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (b: Buffer) => (text += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (text += b.toString('utf8')));
    child.on('error', () => resolve(null));
    child.on('close', (code) =>
      resolve(
        code === 0
          ? text
              .split('\n')
              .map((s) => s.trim())
              .filter((s) => /^[a-z_]+$/i.test(s))
          : null,
      ),
    );
  });
}

/**
 * Parses `--psm 0` output: the rotation (0/90/180/270°, clockwise) that makes the page upright; 0 when there is
 * none, or when the `Orientation confidence` OSD reports is below `minConfidence` (or missing while one is asked).
 */
export function parseOsdRotation(osd: string, minConfidence = 0): number {
  const m = /Rotate:\s*(\d+)/.exec(osd);
  if (!m) return 0;
  if (minConfidence > 0) {
    const c = /Orientation confidence:\s*([\d.]+)/.exec(osd);
    if (!c || Number(c[1]) < minConfidence) return 0;
  }
  return Number(m[1]) % 360;
}
