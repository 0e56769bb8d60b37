import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, invalid } from '../errors.js';
import type { Authenticator } from './authenticator.js';
import type { Credential } from './credentials.repo.js';
import { hasFeature, type Feature } from '../features/features.js';

/** Which credential kind a route requires; set as `config: {auth: 'partner'}` on the route. */
export type AuthKind = 'partner' | 'pos' | 'none';

declare module 'fastify' {
  interface FastifyRequest {
    credential?: Credential;
  }
  interface FastifyContextConfig {
    auth?: AuthKind;
    /** A per-source switch the route needs; without it the route answers as an unknown route (404 not_found). */
    feature?: Feature;
  }
}

const EMPTY = new Uint8Array(0);

/** Max request body: 2 MiB. Spec: General rule 6, Limits. */
export const BODY_LIMIT = 2 * 1024 * 1024;

/**
 * Installs raw-body reading and request authentication.
 * Every content type is read as a Buffer (so the signature covers the exact bytes); in `preValidation` the
 * signature is verified and the request id consumed, and only then the JSON is parsed into `request.body`, so
 * schema validation (unknown fields → 400) runs on authenticated requests only.
 */
export function installAuth(app: FastifyInstance, authenticator: Authenticator): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) => done(null, body));

  app.addHook('preValidation', async (request: FastifyRequest) => {
    const kind = request.routeOptions.config.auth ?? 'none';
    if (kind === 'none') return;
    const raw = Buffer.isBuffer(request.body) ? (request.body as Buffer) : EMPTY;
    const q = request.url.indexOf('?');
    const path = q === -1 ? request.url : request.url.slice(0, q);
    const feature = request.routeOptions.config.feature;
    const cred = await authenticator.authenticate({ headers: request.headers, method: request.method, path, rawBody: raw }).catch(async (err) => {
      // a switched route exists only for sources that have the switch: everyone else gets today's 404
      if (feature && !(await authenticator.keyHasFeature(request.headers['x-api-key'], feature))) throw noSuchRoute();
      throw err;
    });
    if (feature && !hasFeature(cred, feature)) throw noSuchRoute();
    if (cred.kind !== kind) throw new ApiError('forbidden', {}, `a ${cred.kind} key cannot call ${kind} endpoints`);
    request.credential = cred;
    if (request.method === 'POST') request.body = parseJson(raw);
  });
}

/** The body of an unknown route (error-handler.ts's not-found handler). */
function noSuchRoute(): ApiError {
  return new ApiError('not_found', {}, 'no such route');
}

function parseJson(raw: Uint8Array): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw invalid('body is not UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw invalid('body is not valid JSON');
  }
}

/** The authenticated credential of a request (set by the auth hook). */
export function credentialOf(request: FastifyRequest): Credential {
  if (!request.credential) throw new ApiError('internal_error', {}, 'route without authentication');
  return request.credential;
}
