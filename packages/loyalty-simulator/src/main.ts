import { fileURLToPath } from 'node:url';
import { startLoyaltySimulator } from './index.js';

/**
 * Command line: `tsx packages/loyalty-simulator/src/main.ts`. Environment: LOYALTY_CONFIG (JSON file, default
 * config/demo.json of this package), LOYALTY_PORT (default 8088), LOYALTY_HOST (default 127.0.0.1).
 */
const configPath = process.env.LOYALTY_CONFIG || fileURLToPath(new URL('../config/demo.json', import.meta.url));
const port = Number(process.env.LOYALTY_PORT || 8088);
const sim = await startLoyaltySimulator({ configPath, port, host: process.env.LOYALTY_HOST || '127.0.0.1' });
console.log(`loyalty simulator listening on ${sim.url} (config ${configPath})`);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void sim.close().then(() => process.exit(0)));
