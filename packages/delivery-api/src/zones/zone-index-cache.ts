import { ZoneIndex } from './zone-index.js';
import type { ZonesRepo } from './zones.repo.js';

interface Entry {
  revision: string;
  index: Promise<ZoneIndex>;
}

/**
 * Per-instance cache of each tenant's prepared zone index, keyed by the zone revision (migration 005: every write
 * to `delivery_zones` bumps it, from any instance). A choice costs one one-row read of the revision; the zones are
 * loaded and indexed again only after they changed. Like CatalogSnapshots, an entry read in the middle of a
 * change is at worst rebuilt on the next call: the revision is read before the zones.
 */
export class ZoneIndexCache {
  private readonly cache = new Map<string, Entry>();

  constructor(
    private readonly zones: ZonesRepo,
    private readonly maxTenants = 1000,
  ) {}

  /** The index of the tenant's zones as of now. Concurrent first calls share one build. */
  async forTenant(tenantId: string): Promise<ZoneIndex> {
    const revision = await this.zones.revision();
    const hit = this.cache.get(tenantId);
    if (hit && hit.revision === revision) return hit.index;
    const index = this.zones.listForTenant(tenantId).then((zones) => new ZoneIndex(zones));
    if (this.cache.size >= this.maxTenants) this.cache.clear();
    this.cache.set(tenantId, { revision, index });
    index.catch(() => {
      if (this.cache.get(tenantId)?.index === index) this.cache.delete(tenantId);
    });
    return index;
  }
}
