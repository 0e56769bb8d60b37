/**
 * Runs the delivery API alone with the environment's configuration (production entry point):
 * `node packages/delivery-api/dist/main.js` after `npm run build`. Exits 2 with the variable's name on a bad
 * configuration; on SIGTERM/SIGINT closes the server and exits 0 (`runMain` of @app/shared).
 */
import { runMain } from '@app/shared';
import { loadConfig } from './config.js';
import { startDeliveryServer } from './server.js';

/** Past this a stop exits 1 anyway: the server drains its in-flight requests well within it. */
const SHUTDOWN_GRACE_MS = 10_000;

await runMain(async () => {
  const server = await startDeliveryServer({ config: loadConfig() });
  server.app.log.info(`Delivery Partner API listening on ${server.url}`);
  return {
    service: server,
    options: { graceMs: SHUTDOWN_GRACE_MS, log: (msg, extra) => server.app.log.info(extra ?? {}, `delivery-api ${msg}`) },
  };
});
