import { fileURLToPath } from 'node:url';
import { randomIds, systemClock, type Clock, type IdSource } from '@app/shared';
import { loadConfigFile, parseConfig, type Faults, type SimulatorConfig } from './config.js';
import { LoyaltyEngine } from './engine/engine.js';
import { buildSimulatorApp } from './http/app.js';

export { parseConfig, loadConfigFile, type SimulatorConfig, type Faults, type ProgramConfig, type CouponConfig } from './config.js';
export { LoyaltyEngine } from './engine/engine.js';
export { SimError, SIM_ERROR_STATUS, type SimErrorCode } from './engine/errors.js';
export type * from './engine/types.js';
export { buildSimulatorApp, DEFAULT_WRITE_LIMIT } from './http/app.js';
export { WriteLimiter } from './http/write-limit.js';

/** The demo chain's loyalty configuration (config/demo.json of this package), as `npm start` runs it. */
export const DEMO_LOYALTY_CONFIG_PATH = fileURLToPath(new URL('../config/demo.json', import.meta.url));

/** Options of {@link startLoyaltySimulator}: a config object or a JSON file path (one of the two). */
export interface StartOptions {
  config?: SimulatorConfig;
  configPath?: string;
  /** TCP port; 0 = a random free port (tests). Default 0. */
  port?: number;
  /** Listen address, default 127.0.0.1 (the admin endpoint has no auth, so keep it local). */
  host?: string;
  /** Time source for token expiry, coupon validity and the write-limit window; tests pass a ManualClock. */
  clock?: Clock;
  ids?: IdSource;
}

/** A running simulator. */
export interface RunningSimulator {
  /** Base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  url: string;
  /** Switches faults at run time (merged into the current ones), like `POST /admin/faults`. */
  setFaults(patch: Faults): Faults;
  /** The in-memory state, for assertions (balances, holds). */
  engine: LoyaltyEngine;
  /** Stops listening and drops open connections (also those held by the `timeout` fault). */
  close(): Promise<void>;
}

/**
 * Starts the loyalty simulator (iiko Cloud loyalty shape) over HTTP.
 * Config: `config` or `configPath` (see config/demo.json and docs/loyalty.md).
 */
export async function startLoyaltySimulator(opts: StartOptions): Promise<RunningSimulator> {
  const config = opts.config ? parseConfig(opts.config) : opts.configPath ? loadConfigFile(opts.configPath) : undefined;
  if (!config) throw new Error('startLoyaltySimulator: pass config or configPath');
  const clock = opts.clock ?? systemClock;
  const ids = opts.ids ?? randomIds;
  const engine = new LoyaltyEngine(config, clock, ids);
  const { app, faults } = buildSimulatorApp({
    engine,
    clock,
    ids,
    faults: config.faults ?? {},
    apiLogins: config.apiLogins,
    tokenTtlSeconds: config.tokenTtlSeconds ?? 3600,
  });
  const host = opts.host ?? '127.0.0.1';
  await app.listen({ port: opts.port ?? 0, host });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  return { url: `http://${host}:${port}`, setFaults: (p) => faults.set(p), engine, close: () => app.close() };
}
