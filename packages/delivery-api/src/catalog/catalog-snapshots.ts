import type { PointWithRoute } from '../points/points.repo.js';
import type { TerminalGroupState } from './catalog.types.js';
import type { TerminalGroupsRepo } from './terminal-groups.repo.js';

/**
 * Per-instance cache of a terminal group's pushed catalog, keyed by its menu and stop-list revisions as read with
 * the point row. A request that already has the point row then skips loading the large menu document unless the
 * catalog changed since. Other documents (streets, mappings) may be older in a cached snapshot: use
 * TerminalGroupsRepo.get for them.
 */
export class CatalogSnapshots {
  private readonly cache = new Map<string, TerminalGroupState>();

  constructor(private readonly terminalGroups: TerminalGroupsRepo) {}

  async forPoint(p: PointWithRoute & { route: NonNullable<PointWithRoute['route']> }): Promise<TerminalGroupState | null> {
    const key = `${p.route.organizationId}/${p.route.terminalGroupId}`;
    const hit = this.cache.get(key);
    if (hit && hit.menuRevision === p.catalog.menuRevision && hit.stopListRevision === p.catalog.stopListRevision) return hit;
    const tg = await this.terminalGroups.get(p.route.organizationId, p.route.terminalGroupId);
    if (tg) {
      if (this.cache.size > 1000) this.cache.clear();
      this.cache.set(key, tg);
    }
    return tg;
  }
}
