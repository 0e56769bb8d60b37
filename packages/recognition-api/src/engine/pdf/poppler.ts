import { spawn } from 'node:child_process';

/** How a poppler-utils tool is run: abort signal of the request and a time limit of its own. */
export interface PopplerCall {
  signal?: AbortSignal;
  /** Milliseconds before the process is killed (SIGKILL); default 30 s. */
  timeoutMs?: number;
  /** Directory of the poppler binaries; default on PATH (Debian `poppler-utils` puts them in /usr/bin). */
  binDir?: string;
}

/** Why a poppler tool produced no output: `failed` (non-zero exit: a broken or encrypted file), `timeout`, `aborted`, `unavailable` (binary missing). */
export class PopplerError extends Error {
  constructor(
    readonly kind: 'failed' | 'timeout' | 'aborted' | 'unavailable',
    message: string,
    readonly stderr = '',
  ) {
    super(message);
    this.name = 'PopplerError';
  }
}

/** Largest stdout accepted (a 300 DPI A4 PNG is ~1–3 MB; the text of a page a few hundred KB). */
const MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * Runs `tool args…` of poppler-utils (`pdfinfo`, `pdftotext`, `pdftoppm`) without a shell and resolves its
 * stdout. The process is killed with SIGKILL when `signal` aborts or `timeoutMs` passes (a hostile PDF can make
 * a renderer spin), and when its output grows past 64 MB.
 * @throws PopplerError `failed` (non-zero exit; message carries the first stderr line), `timeout`, `aborted`,
 *   `unavailable` (ENOENT).
 */
export function runPoppler(tool: 'pdfinfo' | 'pdftotext' | 'pdftoppm', args: string[], call: PopplerCall = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (call.signal?.aborted) return reject(new PopplerError('aborted', `${tool} aborted`));
    const bin = call.binDir ? `${call.binDir}/${tool}` : tool;
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let why: PopplerError | null = null;
    const kill = (e: PopplerError) => {
      why ??= e;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => kill(new PopplerError('timeout', `${tool} took longer than ${call.timeoutMs ?? 30_000} ms`)),
      call.timeoutMs ?? 30_000,
    );
    const onAbort = () => kill(new PopplerError('aborted', `${tool} aborted`));
    call.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (b: Buffer) => {
      size += b.length;
      if (size > MAX_OUTPUT) kill(new PopplerError('failed', `${tool} output exceeds ${MAX_OUTPUT} bytes`));
      else out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const done = () => {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      done();
      reject(
        e.code === 'ENOENT'
          ? new PopplerError('unavailable', `${tool} not found (install poppler-utils)`)
          : new PopplerError('failed', `${tool} failed to start: ${e.message}`),
      );
    });
    child.on('close', (code) => {
      done();
      const stderr = Buffer.concat(err).toString('utf8');
      if (why) return reject(why);
      if (code === 0) return resolve(Buffer.concat(out));
      const first = stderr.split('\n').find((l) => l.trim() !== '') ?? `exit code ${code}`;
      reject(new PopplerError('failed', `${tool}: ${first.trim()}`, stderr));
    });
  });
}
