import { loadRecognitionConfig } from './config.js';
import { serviceOptionsFromConfig } from './entry-options.js';
import { startRecognitionService } from './index.js';

/**
 * Production entry, `tsx packages/recognition-api/src/server.ts`: runs the recognition API from the environment
 * (config.ts). Creates no API key and prints no secret: keys come from `keys-cli.ts create`.
 */
const config = loadRecognitionConfig();
const service = await startRecognitionService(serviceOptionsFromConfig(config, (msg, extra) => console.error(JSON.stringify({ msg, ...extra }))));
console.log(`recognition-api listening on ${service.url}${config.allowLoopbackCallbacks ? ' (callbacks to loopback addresses allowed)' : ''}`);
const stop = async () => {
  await service.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
