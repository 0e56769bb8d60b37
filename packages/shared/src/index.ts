export * from './signing.js';
export * from './clock.js';
export * from './db/db.js';
export * from './env.js';
export * from './poller.js';
