import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';
import { hasFeature } from '../features/features.js';
import type { PartnerRateLimit } from './partner-rate-limit.js';

/**
 * Enforces the general limits for partner requests of sources with the `rate-limits` switch (spec: Limits,
 * planned). Runs after authentication (installAuth's hook is registered first), so the key is known and verified;
 * POS routes (POS credentials) and sources with the switch off are not counted and get no headers. Every answer of
 * a counted request carries X-RateLimit-Limit, -Remaining and -Reset (seconds until the window resets); a refused
 * one is 429 `rate_limited` with `Retry-After` in seconds. The client IP is the socket address (no proxy headers
 * are trusted).
 */
export function installPartnerRateLimit(app: FastifyInstance, limiter: PartnerRateLimit): void {
  app.addHook('preValidation', async (request, reply) => {
    const cred = request.credential;
    if (cred?.kind !== 'partner' || !hasFeature(cred, 'rate-limits')) return;
    const s = await limiter.check(cred.apiKey, request.ip);
    reply.header('X-RateLimit-Limit', String(s.limit));
    reply.header('X-RateLimit-Remaining', String(s.remaining));
    reply.header('X-RateLimit-Reset', String(s.resetSeconds));
    if (s.limited) throw new ApiError('rate_limited', {}, `more than ${s.limit} requests per minute`, { 'Retry-After': String(s.resetSeconds) });
  });
}
