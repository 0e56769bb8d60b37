import type { Clock } from '@app/shared';
import type { TerminalGroupsRepo } from '../catalog/terminal-groups.repo.js';
import type { CatalogEvents } from './catalog-events.js';

/**
 * Emits `point.status_changed` (switch catalog-events) when a terminal group's POS becomes alive or offline: a
 * terminal is alive while its last heartbeat is within the heartbeat window, as point status says. Going offline
 * has no request that could report it, so this runs periodically (server.ts, every 15 s) and compares each
 * terminal group's liveness with the one last reported (`terminal_groups.notified_alive`). The first look at a
 * terminal group records its state without an event. The events are written before the state, so a crash between
 * the two repeats the event (at least once); two instances looking at once coalesce into the waiting event.
 */
export class PointStatusWatcher {
  constructor(private readonly deps: { terminalGroups: TerminalGroupsRepo; events: CatalogEvents; clock: Clock; heartbeatWindowSeconds: number }) {}

  /** One look; returns the number of terminal groups whose liveness changed. */
  async runOnce(): Promise<number> {
    const now = this.deps.clock.now();
    const cutoff = new Date(now.getTime() - this.deps.heartbeatWindowSeconds * 1000);
    const changed = await this.deps.terminalGroups.livenessChanges(cutoff, 500);
    for (const t of changed) {
      if (t.before !== null)
        await this.deps.events.record({
          tenantId: t.tenantId,
          organizationId: t.organizationId,
          terminalGroupId: t.terminalGroupId,
          type: 'point.status_changed',
          revision: t.alive ? 'alive' : 'offline',
          occurredAt: now,
        });
      await this.deps.terminalGroups.setNotifiedAlive(t.organizationId, t.terminalGroupId, t.alive);
    }
    return changed.length;
  }
}
