/**
 * Runs the recognition API alone with the environment's configuration (production entry point, as delivery's
 * main.ts): `node packages/recognition-api/dist/main.js (after npm run build; from source: npx tsx packages/recognition-api/src/main.ts)`. Exits non-zero with the variable's name on a bad
 * configuration. Creates no API key and prints no secret: keys come from `keys-cli.ts create`.
 */
import { ConfigError, loadRecognitionConfig } from './config.js';
import { serviceOptionsFromConfig } from './entry-options.js';
import { startRecognitionService } from './server.js';
import { exitOnStopSignals } from './shutdown.js';

try {
  const config = loadRecognitionConfig();
  const service = await startRecognitionService(serviceOptionsFromConfig(config));
  console.log(`recognition-api listening on ${service.url}${config.allowLoopbackCallbacks ? ' (callbacks to loopback addresses allowed)' : ''}`);
  // no secret on the console in production: a generated first password stays in the data folder (mode 600)
  console.log(
    `admin panel ${service.admin.url} (user ${service.admin.username}; ${service.admin.password ? 'first password generated into the data folder: set your own with admin-cli set-password or ADMIN_PASSWORD_HASH' : 'password from ADMIN_PASSWORD_HASH'})`,
  );
  exitOnStopSignals(() => service.close(), {
    graceMs: config.shutdownGraceMs,
    log: (msg, extra) => console.log(`recognition-api ${msg}${extra ? ` ${JSON.stringify(extra)}` : ''}`),
  });
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(`configuration error: ${err.message}`);
    process.exit(2);
  }
  throw err;
}
