import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import type { KeyUsageCounter } from './key-usage.js';
import type { ApiScope, KeysRepo } from './keys.repo.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Id of the authenticated API key (owner of the documents it creates); set by the auth hook. */
    apiKeyId: string;
    /** Scopes of the authenticated key (`recognition`, `edo`). */
    apiKeyScopes: ApiScope[];
  }
}

/** Query parameter names that would carry a key in the URL (Spec: Authentication, rule 2). */
export const URL_KEY_PARAMS = ['api_key', 'apikey', 'key', 'x-api-key', 'x_api_key', 'token'];

const PUBLIC_PATHS = new Set(['/api/v1/health', '/openapi.json', '/metrics']);

/** The administration panel (`admin-web/`): its own sign-in and session; API keys never open it. */
const isPanel = (route: string | undefined, path: string) => (route ?? path) === '/admin' || (route ?? path).startsWith('/admin/');

/** The scope a path needs: the e-document gateway needs `edo`, everything else `recognition`. */
export const scopeOf = (path: string): ApiScope => (path === '/api/v1/edo' || path.startsWith('/api/v1/edo/') ? 'edo' : 'recognition');

function urlCarriesKey(request: FastifyRequest): boolean {
  const q = request.url.indexOf('?');
  if (q < 0) return false;
  const params = new URLSearchParams(request.url.slice(q + 1));
  return [...params.keys()].some((k) => URL_KEY_PARAMS.includes(k.toLowerCase()));
}

/**
 * `X-API-Key` authentication on every route except health (Spec: Authentication). A request whose URL
 * carries a key-like parameter is refused with 401 INVALID_API_KEY even when the header is valid: a key in a
 * URL ends up in access logs and proxies, so we make that mistake fail loudly instead of silently working.
 * A valid key without the scope of the path ({@link scopeOf}) gets 403 FORBIDDEN. Every answer to an
 * authenticated request is counted for its key (`usage`, the panel's requests and errors per key).
 */
export function installAuth(app: FastifyInstance, keys: KeysRepo, usage?: KeyUsageCounter): void {
  app.decorateRequest('apiKeyId', '');
  app.decorateRequest('apiKeyScopes', null as unknown as ApiScope[]);
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0]!;
    if (PUBLIC_PATHS.has(path) || isPanel(request.routeOptions.url, path)) return;
    if (urlCarriesKey(request)) throw new ApiError('INVALID_API_KEY', 'API keys are accepted only in the X-API-Key header, never in the URL');
    const raw = request.headers['x-api-key'];
    const presented = Array.isArray(raw) ? raw[0] : raw;
    if (!presented) throw new ApiError('MISSING_API_KEY', 'X-API-Key header is required');
    const key = await keys.findActive(presented.trim());
    if (!key) throw new ApiError('INVALID_API_KEY', 'API key is invalid or deactivated');
    // By the matched route, not the raw URL: the router decodes `%65do` to `edo`, a raw-path check would not.
    const needed = scopeOf(request.routeOptions.url ?? path);
    if (!key.scopes.includes(needed))
      throw new ApiError('FORBIDDEN', `this API key lacks the "${needed}" scope; an administrator can grant it (recognition-admin keys set-scopes)`);
    await keys.touch(key.id);
    request.apiKeyId = key.id;
    request.apiKeyScopes = key.scopes;
  });
  if (usage)
    app.addHook('onResponse', async (request, reply) => {
      if (request.apiKeyId) usage.count(request.apiKeyId, reply.statusCode);
    });
}
