import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Clock, IdSource } from '@app/shared';
import type { Faults } from '../config.js';
import type { LoyaltyEngine } from '../engine/engine.js';
import { SimError } from '../engine/errors.js';
import { loyaltyRoutes } from './routes.js';
import { WRITE_OPERATIONS, type Operation } from './wire.js';
import { WriteLimiter } from './write-limit.js';

/** Default writes per API login per minute (about what the real service allows). */
export const DEFAULT_WRITE_LIMIT = 4;

export interface SimulatorAppDeps {
  engine: LoyaltyEngine;
  clock: Clock;
  ids: IdSource;
  faults: Faults;
  apiLogins: string[];
  tokenTtlSeconds: number;
}

/** Live fault switches; `setFaults` merges, so `{status5xx: 0}` turns one fault off and keeps the others. */
export interface FaultControl {
  get(): Faults;
  set(patch: Faults): Faults;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on every loyalty route: the operation name, for faults and the write limit. */
    op?: Operation;
  }
  interface FastifyRequest {
    apiLogin?: string;
  }
}

/**
 * Builds the simulator's Fastify app: token endpoint, Bearer auth, faults, per-login write limit,
 * the iiko-shaped loyalty routes and `POST /admin/faults`.
 */
export function buildSimulatorApp(d: SimulatorAppDeps): { app: FastifyInstance; faults: FaultControl } {
  let faults: Faults = { ...d.faults };
  const faultControl: FaultControl = { get: () => ({ ...faults }), set: (p) => (faults = { ...faults, ...p }) };
  const limiter = new WriteLimiter(d.clock, () => faults.writeLimitPerMinute ?? DEFAULT_WRITE_LIMIT);
  const tokens = new Map<string, { apiLogin: string; expiresAt: number }>();
  // Destroys sockets of requests held open by the `timeout` fault when the simulator closes.
  const app = Fastify({ logger: false, forceCloseConnections: true });

  app.setErrorHandler((err: Error & { statusCode?: number; validation?: unknown }, _req, reply) => {
    if (err instanceof SimError) {
      if (err.retryAfterSeconds !== undefined) void reply.header('Retry-After', String(err.retryAfterSeconds));
      return reply.code(err.status).send({ error: err.code, errorDescription: err.message });
    }
    if (err.validation || (err.statusCode && err.statusCode < 500))
      return reply.code(400).send({ error: 'BAD_REQUEST', errorDescription: err.message });
    return reply.code(500).send({ error: 'INTERNAL', errorDescription: 'Internal error' });
  });

  app.post<{ Body: { apiLogin?: string } }>('/api/1/access_token', async (req) => {
    const login = req.body?.apiLogin;
    if (!login || !d.apiLogins.includes(login)) throw new SimError('UNAUTHORIZED', 'Unknown apiLogin');
    const token = d.ids.uuid();
    tokens.set(token, { apiLogin: login, expiresAt: d.clock.now().getTime() + d.tokenTtlSeconds * 1000 });
    return { correlationId: d.ids.uuid(), token };
  });

  app.post<{ Body: Faults }>('/admin/faults', async (req) => ({ faults: faultControl.set(req.body ?? {}) }));
  app.get('/admin/faults', async () => ({ faults: faultControl.get() }));

  app.addHook('preValidation', async (req: FastifyRequest, reply: FastifyReply) => {
    const op = req.routeOptions.config.op;
    if (!op) return;
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const t = m ? tokens.get(m[1]) : undefined;
    if (!t || t.expiresAt <= d.clock.now().getTime()) throw new SimError('UNAUTHORIZED', 'Missing, unknown or expired token');
    req.apiLogin = t.apiLogin;

    const f = faults;
    const hit = !f.only || f.only.includes(op);
    if (hit && f.timeout) await new Promise<never>(() => {});
    if (hit && f.slowMs) await new Promise((r) => setTimeout(r, f.slowMs));
    if (hit && f.status5xx) return reply.code(f.status5xx).send({ error: 'INTERNAL', errorDescription: 'Injected server fault' });
    if (WRITE_OPERATIONS.has(op)) {
      const retryAfter = limiter.take(t.apiLogin);
      if (retryAfter !== null) throw new SimError('WRITE_LIMIT', 'Too many write requests for this apiLogin', retryAfter);
    }
    if (hit && f.reject && op === 'hold') throw new SimError('REJECTED', 'Injected rejection');
  });

  app.addHook('onSend', async (req: FastifyRequest) => {
    const op = req.routeOptions.config.op;
    const f = faults;
    if (op && f.timeoutAfterApply && (!f.only || f.only.includes(op))) await new Promise<never>(() => {});
  });

  void app.register(loyaltyRoutes, { engine: d.engine });
  return { app, faults: faultControl };
}
