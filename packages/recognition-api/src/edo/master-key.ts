import { join } from 'node:path';
import { loadOrCreateKey } from '../storage/data-key.js';

/** Where the embedded default keeps its generated master key. */
export const masterKeyFile = (dataDir: string): string => join(dataDir, 'recognition', 'edo-master.key');

/**
 * The 32-byte master key that seals the operator connection's secrets: EDO_MASTER_KEY when configured, else kept
 * in `<dataDir>/recognition/edo-master.key`. Several instances on one PostgreSQL must share EDO_MASTER_KEY.
 */
export const loadMasterKey = (configured: Buffer | undefined, dataDir: string): Buffer => loadOrCreateKey(configured, masterKeyFile(dataDir));
