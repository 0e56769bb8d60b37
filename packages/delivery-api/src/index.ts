/**
 * Public surface of the Delivery Partner API (`@app/delivery-api`): what scripts, benchmarks and the demo use.
 * `app.ts` builds the Fastify app, `server.ts` starts the service (database, migrations, background loops,
 * listener), `main.ts` is the production process entry. Test data lives at `@app/delivery-api/testing`.
 */
export { buildApp, createServices, type AppDeps, type Services } from './app.js';
export { startDeliveryServer, openDeliveryDb, loyaltyFromConfig, MIGRATIONS_DIR, type DeliveryServer } from './server.js';
export { loadConfig, ConfigError, type DeliveryConfig } from './config.js';
export { ApiError, ERROR_STATUS, OperatorError, type ErrorCode } from './errors.js';
export { SecretBox } from './auth/secret-box.js';
export { HttpLoyalty } from './loyalty/loyalty.http.js';
export type { LoyaltyPort } from './loyalty/loyalty.port.js';
export {
  OperatorService,
  MIN_KEY_LENGTH,
  MIN_SECRET_LENGTH,
  type PointInput,
  type RouteInput,
  type IssuedCredential,
} from './operator/operator.service.js';
export { DEMO_CONSOLE_USER, ensureConsoleDemoAccount } from './console/demo-account.js';
export { CONSOLE_PREFIX } from './console/console.plugin.js';
export { seedDemoChain, type ChainSeed, type DemoCredentials } from './operator/demo-seed.js';
export type { OrderView, OrderState } from '@app/delivery-contract';
export * from './webhooks/index.js';
