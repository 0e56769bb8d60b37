import type { Clock } from '@app/shared';
import { invalid } from '../errors.js';
import type { Credential } from '../auth/credentials.repo.js';
import type { TerminalGroupsRepo } from '../catalog/terminal-groups.repo.js';
import type { PosMenu, ProductMapping, PushKind, StopListEntry, Street } from '../catalog/catalog.types.js';
import { contentRevision } from '../catalog/revision.js';

/** Result of a push: the stored revision, the sync time (UTC) and whether the content changed. */
export interface PushResult {
  revision: string;
  syncedAt: string;
  changed: boolean;
}

function duplicates(ids: string[]): string[] {
  const seen = new Set<string>();
  return ids.filter((id) => {
    if (seen.has(id)) return true;
    seen.add(id);
    return false;
  });
}

/**
 * Receives what the POS plugin of one terminal group pushes. Each push sets `syncedAt`; the revision changes
 * only when the content changed. A push that breaks a rule is refused whole (400) and changes nothing.
 * Spec: issue "POS protocol"; docs/pos-protocol.md.
 */
export class PosCatalogService {
  constructor(
    private readonly deps: {
      terminalGroups: TerminalGroupsRepo;
      clock: Clock;
      heartbeatWindowSeconds: number;
      /** Told after a push changed a revision (catalog events); must not throw. */
      onChange?: (cred: Credential, kind: PushKind, revision: string, at: Date) => Promise<void>;
    },
  ) {}

  /** Records a heartbeat; the terminal is alive while heartbeats arrive within the window. */
  async heartbeat(cred: Credential): Promise<{ serverTime: string; aliveWindowSeconds: number }> {
    const now = this.deps.clock.now();
    await this.deps.terminalGroups.heartbeat(cred.organizationId!, cred.terminalGroupId!, now);
    return { serverTime: now.toISOString(), aliveWindowSeconds: this.deps.heartbeatWindowSeconds };
  }

  /** Menu push: item and category ids unique, every item's category and every parent category present. */
  async pushMenu(cred: Credential, menu: PosMenu): Promise<PushResult> {
    const catIds = menu.categories.map((c) => c.id);
    const dupCats = duplicates(catIds);
    if (dupCats.length) throw invalid(`categories: duplicate id ${dupCats[0]}`);
    const dupItems = duplicates(menu.items.map((i) => i.id.toLowerCase()));
    if (dupItems.length) throw invalid(`items: duplicate id ${dupItems[0]}`);
    const cats = new Set(catIds);
    const orphanCat = menu.categories.find((c) => c.parentId !== null && !cats.has(c.parentId));
    if (orphanCat) throw invalid(`categories: ${orphanCat.id} has unknown parentId ${orphanCat.parentId}`);
    const orphanItem = menu.items.find((i) => !cats.has(i.categoryId));
    if (orphanItem) throw invalid(`items: ${orphanItem.id} has unknown categoryId ${orphanItem.categoryId}`);
    const doc: PosMenu = {
      categories: menu.categories.map((c) => ({ id: c.id, name: c.name, sort: c.sort, parentId: c.parentId })),
      items: menu.items.map((i) => ({
        id: i.id.toLowerCase(),
        categoryId: i.categoryId,
        name: i.name,
        description: i.description,
        priceMinor: i.priceMinor,
        weightGrams: i.weightGrams,
        ...(i.nutrition ? { nutrition: { ...i.nutrition } } : {}),
        hidden: i.hidden,
        gift: i.gift,
      })),
    };
    return this.store(cred, 'menu', doc);
  }

  /** Stop-list push: the full current list (not a delta), ids unique. */
  async pushStopList(cred: Credential, items: StopListEntry[]): Promise<PushResult> {
    const dup = duplicates(items.map((i) => i.id.toLowerCase()));
    if (dup.length) throw invalid(`items: duplicate id ${dup[0]}`);
    const doc = items.map((i) => ({ id: i.id.toLowerCase(), balance: i.balance })).sort((a, b) => a.id.localeCompare(b.id));
    return this.store(cred, 'stop_list', doc);
  }

  /** Street dictionary push (iiko streets: name and city). The same name may appear in several cities. */
  async pushStreets(cred: Credential, streets: Street[]): Promise<PushResult> {
    return this.store(
      cred,
      'streets',
      streets.map((s) => ({ name: s.name, city: s.city })),
    );
  }

  /** Legacy mappings of partner product ids to POS products; external ids unique. */
  async pushProductMappings(cred: Credential, products: ProductMapping[]): Promise<PushResult> {
    const dup = duplicates(products.map((p) => p.externalProductId));
    if (dup.length) throw invalid(`products: duplicate externalProductId ${dup[0]}`);
    const doc = products.map((p) => ({ externalProductId: p.externalProductId, productId: p.productId.toLowerCase(), kind: p.kind }));
    return this.store(cred, 'product_mappings', doc);
  }

  private async store(cred: Credential, kind: PushKind, doc: unknown): Promise<PushResult> {
    const now = this.deps.clock.now();
    const r = await this.deps.terminalGroups.push(kind, cred.organizationId!, cred.terminalGroupId!, doc, contentRevision(doc), now);
    if (r.changed) await this.deps.onChange?.(cred, kind, r.revision, now);
    return { revision: r.revision, syncedAt: now.toISOString(), changed: r.changed };
  }
}
