import type { Credential } from '../auth/credentials.repo.js';
import type { PushKind } from '../catalog/catalog.types.js';
import type { CatalogEvents, CatalogEventType } from './catalog-events.js';

const TYPE_OF: Partial<Record<PushKind, CatalogEventType>> = { menu: 'menu.updated', stop_list: 'stoplist.updated' };

/**
 * The POS push callback that records menu.updated / stoplist.updated for a changed revision. The push is already
 * stored when it runs, so a failure here is logged and does not fail the push (partners still see the revision
 * through ETag and GET /v1/status; the POS pushes again within its sync interval).
 */
export function catalogEventsOnPush(
  events: CatalogEvents,
  log: () => { warn(obj: object, msg: string): void },
): (cred: Credential, kind: PushKind, revision: string, at: Date) => Promise<void> {
  return async (cred, kind, revision, at) => {
    const type = TYPE_OF[kind];
    if (!type) return;
    try {
      await events.record({
        tenantId: cred.tenantId,
        organizationId: cred.organizationId!,
        terminalGroupId: cred.terminalGroupId!,
        type,
        revision,
        occurredAt: at,
      });
    } catch (err) {
      log().warn({ err, type }, 'catalog event not recorded');
    }
  };
}
