/**
 * Runs the recognition API alone with the environment's configuration (production entry point, as delivery's
 * main.ts): `node packages/recognition-api/dist/main.js` after `npm run build`. Exits 2 with the variable's name on
 * a bad configuration; on SIGTERM/SIGINT closes within RECOGNITION_SHUTDOWN_GRACE_MS (`runMain` of @app/shared).
 * Creates no API key and prints no secret: keys come from `recognition-admin keys create`.
 */
import { runMain } from '@app/shared';
import { loadRecognitionConfig } from './config.js';
import { serviceOptionsFromConfig } from './entry-options.js';
import { startRecognitionService } from './server.js';

await runMain(async () => {
  const config = loadRecognitionConfig();
  const service = await startRecognitionService(serviceOptionsFromConfig(config));
  console.log(`recognition-api listening on ${service.url}${config.allowLoopbackCallbacks ? ' (callbacks to loopback addresses allowed)' : ''}`);
  // no secret on the console in production: a generated first password stays in the data folder (mode 600)
  console.log(
    `admin panel ${service.admin.url} (user ${service.admin.username}; ${service.admin.password ? 'first password generated into the data folder: set your own with admin-cli set-password or ADMIN_PASSWORD_HASH' : 'password from ADMIN_PASSWORD_HASH'})`,
  );
  return {
    service,
    options: {
      graceMs: config.shutdownGraceMs,
      log: (msg, extra) => console.log(`recognition-api ${msg}${extra ? ` ${JSON.stringify(extra)}` : ''}`),
    },
  };
});
