import type { EdoConnectionRepo } from './edo-connection.repo.js';
import { DIADOC_DEFAULTS, type EdoConnectionAdmin, type EdoConnectionInput } from './edo-connection.service.js';

/** What the start-up seeding did: stored the variables, found them already stored, or kept a different stored connection. */
export type SeedOutcome = 'stored' | 'same' | 'kept-stored';

/**
 * Stores the connection given by DIADOC_* variables at start-up **only when none is stored** (docs/edo-gateway.md,
 * "Which connection wins"). A stored connection wins over the variables: it may have been edited in the admin panel
 * or with recognition-admin edo, and its refresh token may have been rotated since; overwriting it at every restart would undo the
 * edit and bring back a retired token. When the variables name another client, box or endpoint, the stored one is
 * kept and a warning says how to switch (`recognition-admin edo clear`, then restart; or edit it in the panel).
 */
export async function seedEdoConnection(
  repo: EdoConnectionRepo,
  admin: EdoConnectionAdmin,
  seed: EdoConnectionInput,
  log?: (msg: string, extra: object) => void,
): Promise<SeedOutcome> {
  const stored = await repo.get().catch(() => null);
  const revision = await repo.revision();
  if (revision === null) {
    const view = await admin.set(seed);
    log?.('edo connection stored from DIADOC_* variables', { boxId: view.boxId, apiBaseUrl: view.apiBaseUrl, revision: view.revision });
    return 'stored';
  }
  const same =
    stored &&
    stored.clientId === seed.clientId &&
    stored.boxId === seed.boxId &&
    stored.issuerUrl === (seed.issuerUrl ?? DIADOC_DEFAULTS.issuerUrl).replace(/\/+$/, '') &&
    stored.apiBaseUrl === (seed.apiBaseUrl ?? DIADOC_DEFAULTS.apiBaseUrl).replace(/\/+$/, '');
  if (same) return 'same';
  log?.(
    'DIADOC_* variables differ from the stored edo connection; the stored one is used (recognition-admin edo clear and restart to take the variables)',
    {
      storedBoxId: stored?.boxId ?? null,
      envBoxId: seed.boxId,
      revision,
    },
  );
  return 'kept-stored';
}
