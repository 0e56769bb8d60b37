import { loadRecognitionConfig } from './config.js';
import { startRecognitionService } from './index.js';

/** `tsx packages/recognition-api/src/server.ts`: runs the recognition API from the environment (config.ts). */
const config = loadRecognitionConfig();
const service = await startRecognitionService({
  dataDir: config.dataDir, port: config.port, host: config.host, databaseUrl: config.databaseUrl, ai: config.ai,
  workers: config.workers, allowPrivateCallbacks: config.allowPrivateCallbacks, logger: { level: config.logLevel }, edo: config.edo, admin: config.admin,
  log: (msg, extra) => console.error(JSON.stringify({ msg, ...extra })),
});
console.log(`recognition-api listening on ${service.url} (demo X-API-Key: ${service.apiKey})`);
console.log(`admin panel ${service.admin.url} (user ${service.admin.username}${service.admin.password ? `, password ${service.admin.password}` : ''})`);
const stop = async () => {
  await service.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
