/**
 * Runs the delivery API alone with the environment's configuration (production entry point):
 * `npx tsx packages/delivery-api/src/main.ts`. Exits non-zero with the variable's name on a bad configuration.
 */
import { ConfigError, loadConfig } from './config.js';
import { startDeliveryServer } from './server.js';

try {
  const config = loadConfig();
  const server = await startDeliveryServer({ config });
  server.app.log.info(`Delivery Partner API listening on ${server.url}`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(`configuration error: ${err.message}`);
    process.exit(2);
  }
  throw err;
}
