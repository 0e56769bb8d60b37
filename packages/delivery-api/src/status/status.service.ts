import { readFileSync } from 'node:fs';
import type { SyncStatus } from '@app/delivery-contract';
import type { Clock } from '@app/shared';
import type { Credential } from '../auth/credentials.repo.js';
import type { PointsRepo } from '../points/points.repo.js';
import type { PointsService } from '../points/points.service.js';

/** The service's own version (package.json of the delivery API; the same path from src/ and dist/). */
export const SERVICE_VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

/**
 * GET /v1/status (switch `guest-api`): how fresh the catalog of each point of the key is, from the rows the POS
 * pushes update (menu and stop-list revision and push time, last heartbeat). `alive` uses the same heartbeat window
 * as point status. One query for all points.
 */
export class StatusService {
  constructor(private readonly deps: { points: PointsRepo; pointsService: PointsService; clock: Clock }) {}

  async status(cred: Credential): Promise<SyncStatus> {
    const now = this.deps.clock.now();
    const points = await this.deps.points.listForSource(cred.tenantId, cred.source!, cred.pointIds);
    const iso = (d: Date | null) => d?.toISOString() ?? null;
    return {
      service: { version: SERVICE_VERSION, time: now.toISOString() },
      points: points.map((p) => ({
        pointId: p.pointId,
        active: p.route?.active === true,
        menu: { revision: p.catalog.menuRevision, pushedAt: iso(p.catalog.menuSyncedAt) },
        stopList: { revision: p.catalog.stopListRevision, pushedAt: iso(p.catalog.stopListSyncedAt) },
        pos: {
          lastHeartbeatAt: iso(p.lastHeartbeatAt),
          heartbeatAgeSeconds: p.lastHeartbeatAt ? Math.max(0, Math.floor((now.getTime() - p.lastHeartbeatAt.getTime()) / 1000)) : null,
          alive: this.deps.pointsService.statusOf(p).terminalAlive,
        },
      })),
    };
  }
}
