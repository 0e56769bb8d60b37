/**
 * Stop signals of a production entry (main.ts, worker.ts), issue 27 defect 2: on the first SIGTERM or SIGINT,
 * `close()` runs (jobs released to `queued` uncharged, Tesseract children killed, connections closed) and the
 * process exits 0; if it has not finished within `graceMs` (RECOGNITION_SHUTDOWN_GRACE_MS), the process exits 1
 * anyway, so an orchestrator's SIGKILL never has to come. A second signal exits at once.
 */
export function exitOnStopSignals(close: () => Promise<void>, opts: { graceMs: number; log: (msg: string, extra?: object) => void }): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      opts.log('second stop signal: exiting now', { signal });
      process.exit(1);
    }
    stopping = true;
    const started = Date.now();
    const forced = setTimeout(() => {
      opts.log('shutdown grace period passed: exiting', { graceMs: opts.graceMs });
      process.exit(1);
    }, opts.graceMs);
    forced.unref();
    close().then(
      () => {
        opts.log('stopped', { signal, ms: Date.now() - started });
        process.exit(0);
      },
      (err: Error) => {
        opts.log('shutdown failed', { err: err.message });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
