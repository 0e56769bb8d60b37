import type { Clock } from '@app/shared';
import type { Credential } from '../auth/credentials.repo.js';
import type { PointsService } from '../points/points.service.js';
import type { TerminalGroupsRepo } from './terminal-groups.repo.js';
import type { CatalogSnapshots } from './catalog-snapshots.js';
import type { CatalogRevisionCache } from './catalog-revision-cache.js';
import type { PointsRepo } from '../points/points.repo.js';
import type { Nutrition, PosMenuItem, StopListEntry, TerminalGroupState } from './catalog.types.js';
import { contentRevision, NEVER_SYNCED_REVISION, STALE_AFTER_MS } from './revision.js';

const EPOCH = new Date(0).toISOString();

import type { Money } from '../common/money.js';

/** Spec: MenuItem. */
export interface MenuItemView {
  id: string;
  categoryId: string;
  name: string;
  description: string;
  price: Money;
  weightGrams: number;
  nutrition?: Nutrition;
  available: boolean;
  unavailableReason: 'stop_list' | null;
}

export interface MenuView {
  pointId: string;
  revision: string;
  currency: 'RUB';
  categories: { id: string; name: string; sort: number; parentId: string | null }[];
  items: MenuItemView[];
  syncedAt: string;
  stale: boolean;
}

export interface StopListView {
  pointId: string;
  revision: string;
  items: StopListEntry[];
  syncedAt: string;
  stale: boolean;
}

/** Ids of items that are out: listed on the stop-list with balance <= 0 (positive balance = limited stock, still sold). */
export function unavailableIds(stopList: StopListEntry[] | null): Set<string> {
  return new Set((stopList ?? []).filter((e) => e.balance <= 0).map((e) => e.id));
}

/**
 * Menu, stop-list, catalog revisions and legacy product mappings of the key's points.
 * Hidden and gift items are not published in the menu (they cannot be ordered directly; see docs/decisions.md).
 */
export class CatalogService {
  constructor(
    private readonly deps: {
      points: PointsService;
      pointsRepo: PointsRepo;
      terminalGroups: TerminalGroupsRepo;
      snapshots: CatalogSnapshots;
      /** The point's route and catalog revisions, cached per instance while LISTEN/NOTIFY keeps them coherent. */
      revisions: CatalogRevisionCache;
      clock: Clock;
    },
  ) {}

  /**
   * Spec: GET /v1/points/{pointId}/menu. Revision covers the menu and which items are out, so ETag follows
   * availability. The built view is cached per terminal group and (menu, stop-list) revision, and the point row
   * with the revisions per instance (CatalogRevisionCache), so an unchanged menu reads nothing from the database
   * while the cache is serving, and only the point row otherwise. `stale` is computed on every call from the sync
   * time and the clock. Errors: 403 forbidden (point not in the key), 404 not_found (no active route).
   */
  async menu(cred: Credential, pointId: string): Promise<MenuView> {
    const p = await this.deps.revisions.routedPoint(cred, pointId);
    const key = `${p.route.organizationId}/${p.route.terminalGroupId}/${pointId}`;
    const hit = this.menuCache.get(key);
    let view: MenuView;
    if (hit && hit.menuRevision === p.catalog.menuRevision && hit.stopListRevision === p.catalog.stopListRevision) {
      view = hit.view;
    } else {
      const tg = await this.deps.snapshots.forPoint(p);
      view = this.menuOf(pointId, tg);
      if (this.menuCache.size > 1000) this.menuCache.clear();
      this.menuCache.set(key, { menuRevision: tg?.menuRevision ?? null, stopListRevision: tg?.stopListRevision ?? null, view });
    }
    const syncedAt = p.catalog.menuSyncedAt;
    return { ...view, syncedAt: syncedAt?.toISOString() ?? EPOCH, stale: this.isStale(syncedAt) };
  }

  private readonly menuCache = new Map<string, { menuRevision: string | null; stopListRevision: string | null; view: MenuView }>();
  private readonly menuJson = new Map<string, { key: string; json: string }>();

  /**
   * The menu as its serialised JSON body, cached with the view (same revisions, sync time and staleness), so a
   * repeated GET of an unchanged menu neither rebuilds nor re-serialises 60+ items. Same content as {@link menu}.
   */
  async menuBody(cred: Credential, pointId: string): Promise<{ revision: string; stale: boolean; json: string }> {
    const view = await this.menu(cred, pointId);
    const key = `${view.revision}|${view.syncedAt}|${view.stale}`;
    const hit = this.menuJson.get(`${cred.tenantId}/${pointId}`);
    if (hit && hit.key === key) return { revision: view.revision, stale: view.stale, json: hit.json };
    const json = JSON.stringify(view);
    if (this.menuJson.size > 1000) this.menuJson.clear();
    this.menuJson.set(`${cred.tenantId}/${pointId}`, { key, json });
    return { revision: view.revision, stale: view.stale, json };
  }

  menuOf(pointId: string, tg: TerminalGroupState | null): MenuView {
    const out = unavailableIds(tg?.stopList ?? null);
    const items = (tg?.menu?.items ?? []).filter((i) => !i.hidden && !i.gift).map((i) => itemView(i, out));
    return {
      pointId,
      revision: menuRevision(tg),
      currency: 'RUB',
      categories: (tg?.menu?.categories ?? []).map((c) => ({ id: c.id, name: c.name, sort: c.sort, parentId: c.parentId })),
      items,
      syncedAt: tg?.menuSyncedAt?.toISOString() ?? EPOCH,
      stale: this.isStale(tg?.menuSyncedAt ?? null),
    };
  }

  /**
   * Spec: GET /v1/points/{pointId}/stop-list. Meant for frequent polling: reads the stop-list only (and the point
   * row when the revision cache is not serving).
   */
  async stopList(cred: Credential, pointId: string): Promise<StopListView> {
    const p = await this.deps.revisions.routedPoint(cred, pointId);
    const items = await this.deps.terminalGroups.document('stop_list', p.route.organizationId, p.route.terminalGroupId);
    const syncedAt = p.catalog.stopListSyncedAt;
    return {
      pointId,
      revision: p.catalog.stopListRevision ?? NEVER_SYNCED_REVISION,
      items: items ?? [],
      syncedAt: syncedAt?.toISOString() ?? EPOCH,
      stale: this.isStale(syncedAt),
    };
  }

  /**
   * Spec: GET /v1/catalog/revision — revisions of every point of the key that has an active route: one query for
   * the points, catalog snapshots from the per-revision cache.
   */
  async revisions(cred: Credential): Promise<Record<string, { menu: string; stopList: string }>> {
    const out: Record<string, { menu: string; stopList: string }> = {};
    for (const p of await this.deps.pointsRepo.listForSource(cred.tenantId, cred.source!, cred.pointIds)) {
      if (!p.route?.active) continue; // no active route: no catalog for this source
      const tg = await this.deps.snapshots.forPoint(p as Parameters<CatalogSnapshots['forPoint']>[0]);
      out[p.pointId] = { menu: menuRevision(tg), stopList: p.catalog.stopListRevision ?? NEVER_SYNCED_REVISION };
    }
    return out;
  }

  /** Spec: GET /v1/points/{pointId}/products (legacy product mapping). */
  async products(cred: Credential, pointId: string): Promise<{ externalPointId: string; products: { externalProductId: string; kind: string }[] }> {
    const p = await this.deps.points.requireRouted(cred, pointId);
    const mappings = await this.deps.terminalGroups.document('product_mappings', p.route.organizationId, p.route.terminalGroupId);
    return { externalPointId: pointId, products: (mappings ?? []).map((m) => ({ externalProductId: m.externalProductId, kind: m.kind })) };
  }

  private isStale(syncedAt: Date | null): boolean {
    return !syncedAt || this.deps.clock.now().getTime() - syncedAt.getTime() > STALE_AFTER_MS;
  }
}

function menuRevision(tg: TerminalGroupState | null): string {
  if (!tg?.menuRevision) return NEVER_SYNCED_REVISION;
  return contentRevision([tg.menuRevision, [...unavailableIds(tg.stopList)].sort()]);
}

function itemView(i: PosMenuItem, out: Set<string>): MenuItemView {
  const off = out.has(i.id);
  const v: MenuItemView = {
    id: i.id,
    categoryId: i.categoryId,
    name: i.name,
    description: i.description,
    price: { amountMinor: i.priceMinor, currency: 'RUB' },
    weightGrams: i.weightGrams,
    available: !off,
    unavailableReason: off ? 'stop_list' : null,
  };
  if (i.nutrition) v.nutrition = i.nutrition;
  return v;
}
