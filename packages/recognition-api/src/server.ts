import { loadRecognitionConfig } from './config.js';
import { serviceOptionsFromConfig } from './entry-options.js';
import { startRecognitionService } from './index.js';

/**
 * Production entry, `tsx packages/recognition-api/src/server.ts`: runs the recognition API from the environment
 * (config.ts). Creates no API key and prints no secret: keys come from `keys-cli.ts create`.
 */
const config = loadRecognitionConfig();
const service = await startRecognitionService(serviceOptionsFromConfig(config));
console.log(`recognition-api listening on ${service.url}${config.allowLoopbackCallbacks ? ' (callbacks to loopback addresses allowed)' : ''}`);
// no secret on the console in production: a generated first password stays in the data folder (mode 600)
console.log(`admin panel ${service.admin.url} (user ${service.admin.username}; ${service.admin.password ? 'first password generated into the data folder: set your own with admin-cli set-password or ADMIN_PASSWORD_HASH' : 'password from ADMIN_PASSWORD_HASH'})`);
const stop = async () => {
  await service.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
