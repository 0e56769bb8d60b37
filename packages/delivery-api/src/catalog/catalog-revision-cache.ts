import type { Db, Subscription } from '@app/shared';
import type { Credential } from '../auth/credentials.repo.js';
import { ApiError } from '../errors.js';
import type { PointWithRoute } from '../points/points.repo.js';
import type { PointsService } from '../points/points.service.js';

/** A point with an active route: what {@link PointsService.requireRouted} returns. */
export type RoutedPoint = PointWithRoute & { route: NonNullable<PointWithRoute['route']> };

/**
 * The notification channel of catalog changes (migration 007). Payloads: `tg:<organizationId>/<terminalGroupId>`
 * (a terminal group's menu or stop-list revision or sync time), `point:<tenantId>/<pointId>` (the point or one of
 * its routes), `*` (a table was truncated: everything).
 */
export const CATALOG_CHANNEL = 'delivery_catalog';

/** Counters of the cache, for tests and /metrics-style introspection. */
export interface CatalogRevisionCacheStats {
  hits: number;
  misses: number;
  invalidations: number;
}

/**
 * Per-instance cache of a point's route and catalog revisions (menu and stop-list revision and sync time) per
 * (tenant, source, point), so a conditional GET of an unchanged menu (304) reads nothing from the database.
 * Coherent across instances through PostgreSQL LISTEN/NOTIFY: every write that changes a cached field notifies
 * {@link CATALOG_CHANNEL} after commit (migration 007 triggers), and each instance evicts the matching entries.
 *
 * Correctness rules:
 * - it serves only while LISTEN is in effect: before {@link start}, after the listening connection is lost (until
 *   it is back) and after {@link stop}, every call reads the database and nothing is cached; a loss and a
 *   re-LISTEN both clear the cache, because notifications may have been missed in between;
 * - a read that raced with a notification is not stored: each notification bumps a generation, and a row is
 *   stored only when the generation did not move while it was read (a notification delivered before the read
 *   started means its commit is visible to the read);
 * - authorisation is not cached: the key's point scope is checked on every call (403 `forbidden`), and only
 *   routed points are cached (404 `not_found` is read again each time);
 * - staleness (`Menu.stale`) is not cached: callers compute it from the cached sync time and their clock.
 */
export class CatalogRevisionCache {
  private readonly entries = new Map<string, RoutedPoint>();
  private generation = 0;
  private live = false;
  private subscription: Subscription | null = null;
  private stopped = false;
  readonly stats: CatalogRevisionCacheStats = { hits: 0, misses: 0, invalidations: 0 };

  constructor(
    private readonly deps: {
      /** The database whose notifications keep the cache coherent; without `listen` the cache never serves. */
      db: Pick<Db, 'listen'>;
      points: Pick<PointsService, 'requireRouted'>;
      /** Entries kept before the cache is emptied (default 10,000 points). */
      maxEntries?: number;
    },
  ) {}

  /** True while LISTEN is in effect, i.e. while cached entries may be served. */
  get serving(): boolean {
    return this.live;
  }

  /**
   * Subscribes to {@link CATALOG_CHANNEL}. Resolves after the first LISTEN attempt; when it failed the cache stays
   * off and the database adapter retries in the background. Idempotent.
   */
  async start(): Promise<void> {
    if (this.subscription || this.stopped || !this.deps.db.listen) return;
    this.subscription = await this.deps.db.listen(CATALOG_CHANNEL, {
      notify: (payload) => this.invalidate(payload),
      listening: () => this.reset(true),
      lost: () => this.reset(false),
    });
  }

  /** Stops listening and turns the cache off for good (app close). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.reset(false);
    const sub = this.subscription;
    this.subscription = null;
    await sub?.close();
  }

  /**
   * The point of the key with an active route, from the cache when it is serving.
   * @throws ApiError forbidden (403) when the point is not in the key; not_found (404) without an active route
   *   (Spec: GET /v1/points/{pointId}/menu errors; same as PointsService.requireRouted).
   */
  async routedPoint(cred: Credential, pointId: string): Promise<RoutedPoint> {
    if (!cred.pointIds.includes(pointId)) throw new ApiError('forbidden', {}, `point ${pointId} is not allowed for this key`);
    const key = `${cred.tenantId}\u0000${cred.source}\u0000${pointId}`;
    if (this.live) {
      const hit = this.entries.get(key);
      if (hit) {
        this.stats.hits++;
        return hit;
      }
    }
    this.stats.misses++;
    const generation = this.generation;
    const live = this.live;
    const p = await this.deps.points.requireRouted(cred, pointId);
    if (live && this.live && generation === this.generation) {
      if (this.entries.size >= (this.deps.maxEntries ?? 10_000)) this.entries.clear();
      this.entries.set(key, p);
    }
    return p;
  }

  /** Evicts the entries a notification payload names (everything for `*` or an unknown payload). */
  private invalidate(payload: string): void {
    this.generation++;
    this.stats.invalidations++;
    if (payload.startsWith('tg:')) {
      const tg = payload.slice(3);
      for (const [k, p] of this.entries) if (`${p.route.organizationId}/${p.route.terminalGroupId}` === tg) this.entries.delete(k);
    } else if (payload.startsWith('point:')) {
      const point = payload.slice(6);
      for (const [k, p] of this.entries) if (`${p.tenantId}/${p.pointId}` === point) this.entries.delete(k);
    } else {
      this.entries.clear();
    }
  }

  /** LISTEN (re)established (`live` true) or lost (`live` false): either way what is cached may be outdated. */
  private reset(live: boolean): void {
    this.generation++;
    this.entries.clear();
    this.live = live && !this.stopped;
  }
}
