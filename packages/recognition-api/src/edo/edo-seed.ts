import type { EdoConnectionRepo } from './edo-connection.repo.js';
import { DIADOC_DEFAULTS, type EdoConnectionAdmin, type EdoConnectionInput } from './edo-connection.service.js';

/**
 * Stores the connection given by DIADOC_* variables at start-up when none is stored, or when the stored one is
 * for another client, box or endpoint. The same identity is left alone: its refresh token may have been rotated
 * since, and the variable would hold the stale one.
 */
export async function seedEdoConnection(
  repo: EdoConnectionRepo,
  admin: EdoConnectionAdmin,
  seed: EdoConnectionInput,
  log?: (msg: string, extra: object) => void,
): Promise<boolean> {
  const stored = await repo.get().catch(() => null);
  const same =
    stored &&
    stored.clientId === seed.clientId &&
    stored.boxId === seed.boxId &&
    stored.issuerUrl === (seed.issuerUrl ?? DIADOC_DEFAULTS.issuerUrl).replace(/\/+$/, '') &&
    stored.apiBaseUrl === (seed.apiBaseUrl ?? DIADOC_DEFAULTS.apiBaseUrl).replace(/\/+$/, '');
  if (same) return false;
  const view = await admin.set(seed);
  log?.('edo connection stored from DIADOC_* variables', { boxId: view.boxId, apiBaseUrl: view.apiBaseUrl, revision: view.revision });
  return true;
}
