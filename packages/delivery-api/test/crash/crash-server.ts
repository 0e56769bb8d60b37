/**
 * Entry of the crash harness's child processes: the production server (same configuration from the environment)
 * with a step observer that kills the process with SIGKILL at the recovery point named by CRASH_AT (absent: a
 * process that is never killed, which takes over after a crash). Only test/crash/crash-world.ts starts it.
 */
import { loadConfig } from '../../src/config.js';
import { startDeliveryServer } from '../../src/server.js';
import { killAt } from '../support/crash-points.js';

const point = process.env.CRASH_AT;
const server = await startDeliveryServer({ config: loadConfig(), steps: point ? killAt(point) : undefined });
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
