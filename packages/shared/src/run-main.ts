import { ConfigError } from './env.js';

/** A started service or worker, as {@link runMain} stops it. */
export interface Stoppable {
  close(): Promise<void>;
}

/** Options of {@link runMain}. */
export interface RunMainOptions {
  /** Grace period of a stop, ms: past it the process exits 1 anyway, so an orchestrator's SIGKILL never has to come. */
  graceMs: number;
  /** Where the stop messages go (`stopped`, `shutdown failed`, …); default the console. */
  log?: (msg: string, extra?: object) => void;
}

/**
 * Stop signals of a production entry: on the first SIGTERM or SIGINT `close()` runs and the process exits 0; if it
 * fails it exits 1; if it has not finished within `graceMs` the process exits 1. A second signal exits 1 at once.
 */
export function exitOnStopSignals(close: () => Promise<void>, opts: RunMainOptions): void {
  const log = opts.log ?? ((msg: string, extra?: object) => console.log(`${msg}${extra ? ` ${JSON.stringify(extra)}` : ''}`));
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      log('second stop signal: exiting now', { signal });
      process.exit(1);
    }
    stopping = true;
    const started = Date.now();
    const forced = setTimeout(() => {
      log('shutdown grace period passed: exiting', { graceMs: opts.graceMs });
      process.exit(1);
    }, opts.graceMs);
    forced.unref();
    close().then(
      () => {
        log('stopped', { signal, ms: Date.now() - started });
        process.exit(0);
      },
      (err: Error) => {
        log('shutdown failed', { err: err.message });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/**
 * The body of a production entry (main.ts, worker.ts of either service): `start()` loads the configuration and
 * starts the service; a ConfigError prints `configuration error: <message>` and exits 2; any other start failure is
 * rethrown (Node prints it and exits 1). Once started, stop signals close it gracefully ({@link exitOnStopSignals};
 * `options` may depend on the loaded configuration). Exit codes: 0 stopped, 1 failure or grace passed, 2 bad
 * configuration.
 */
export async function runMain<S extends Stoppable>(start: () => Promise<{ service: S; options: RunMainOptions }>): Promise<S | undefined> {
  try {
    const { service, options } = await start();
    exitOnStopSignals(() => service.close(), options);
    return service;
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`configuration error: ${err.message}`);
      process.exit(2);
      return undefined;
    }
    throw err;
  }
}
