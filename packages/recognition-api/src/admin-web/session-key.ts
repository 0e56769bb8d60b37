import { join } from 'node:path';
import { loadOrCreateKey } from '../storage/data-key.js';

/** Where the embedded default keeps the generated key of the session cookie. */
export const sessionKeyFile = (dataDir: string): string => join(dataDir, 'recognition', 'admin-session.key');

/**
 * The 32-byte key that encrypts the panel's session cookie: ADMIN_SESSION_KEY when configured, else kept in
 * `<dataDir>/recognition/admin-session.key`, so sessions survive a restart. Instances behind one load balancer
 * must share ADMIN_SESSION_KEY.
 */
export const loadSessionKey = (configured: Buffer | undefined, dataDir: string): Buffer => loadOrCreateKey(configured, sessionKeyFile(dataDir));
