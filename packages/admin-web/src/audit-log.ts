import type { Clock, IdSource } from '@app/shared';
import type { AdminAuditRepo, AuditEntry } from './audit.repo.js';
import type { Actor } from './context.js';

/**
 * A panel's audit log (docs/admin-panel.md, docs/console.md): every change made in the panel and every sign-in
 * attempt, with the user, the client address, the action and its target. Secrets never go in. The Russian names of
 * the actions are the service's (its label table); an unknown action is shown by its code.
 */
export class AuditLog {
  constructor(private readonly deps: { repo: AdminAuditRepo; clock: Clock; ids: IdSource }) {}

  /** Records one action now. */
  record(actor: Actor, action: string, target: string, detail = ''): Promise<void> {
    return this.deps.repo.insert({ id: this.deps.ids.uuid(), at: this.deps.clock.now(), ...actor, action, target, detail });
  }

  /** The newest entries (200 unless given), optionally only those about `target`. */
  latest(limit = 200, target?: string): Promise<AuditEntry[]> {
    return this.deps.repo.latest(limit, target);
  }
}
