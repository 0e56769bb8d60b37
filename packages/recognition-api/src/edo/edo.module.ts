import { randomBytes } from 'node:crypto';
import type { Clock, Db, IdSource } from '@app/shared';
import { diadocOperatorFactory } from './diadoc/diadoc-factory.js';
import { EdoConnectionRepo } from './edo-connection.repo.js';
import { EdoConnectionService } from './edo-connection.service.js';
import { EdoSession, type OperatorFactory } from './edo-session.js';
import { EdoService } from './edo.service.js';
import { SecretBox } from '@app/shared';

/** Options of the gateway: the master key (32 bytes) and the operator factory or its timeout. */
export interface EdoDeps {
  masterKey: Buffer;
  /** Per call to the operator, ms (default 15000). */
  timeoutMs?: number;
  /** Replaces the Diadoc adapter (tests: a short-sleep variant). */
  operatorFactory?: OperatorFactory;
}

/** The gateway's objects: the connection store and admin service, the operator session and the gateway service. */
export function createEdoServices(db: Db, clock: Clock, ids: IdSource, deps?: EdoDeps) {
  const box = new SecretBox(deps?.masterKey ?? randomBytes(32));
  const repo = new EdoConnectionRepo(db, box, clock);
  const session = new EdoSession(repo, deps?.operatorFactory ?? diadocOperatorFactory({ clock, timeoutMs: deps?.timeoutMs ?? 15_000 }));
  const gateway = new EdoService(session, ids, clock);
  const connection = new EdoConnectionService(repo, () => gateway.health());
  return { repo, session, gateway, connection };
}

export type EdoServices = ReturnType<typeof createEdoServices>;
