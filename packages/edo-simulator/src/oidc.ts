import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { OAuth2Server } from 'oauth2-mock-server';
import type { Clock } from '@app/shared';

/** The scope Diadoc's production API requires in the access token. */
export const DIADOC_SCOPE = 'Diadoc.PublicAPI';

/** `Authorization: Basic base64(id:secret)` (client_secret_basic), or undefined. */
function basicCredentials(header: string | undefined): { name: string; pass: string } | undefined {
  const m = /^Basic\s+(.+)$/i.exec(header ?? '');
  if (!m) return undefined;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = text.indexOf(':');
  return i < 0 ? undefined : { name: decodeURIComponent(text.slice(0, i)), pass: decodeURIComponent(text.slice(i + 1)) };
}

interface Grant {
  clientId: string;
  userId: string;
}
type Body = Record<string, string | undefined>;

/**
 * The simulator's identity provider, in the role of `identity.kontur.ru`: OpenID discovery, JWKS and a token
 * endpoint at `/connect/token`, built on oauth2-mock-server (RS256 keys, signed JWTs). On top of the library we
 * enforce what Kontur enforces: only the refresh-token grant, client id + secret checked, refresh tokens that can
 * be revoked (400 invalid_grant), 1-hour access tokens stamped with the simulator's clock, optional rotation.
 */
export class SimIdentityProvider {
  private readonly server = new OAuth2Server(undefined, undefined, { endpoints: { token: '/connect/token' } });
  private readonly grants = new Map<string, Grant>();
  private jwks?: JWTVerifyGetKey;
  /** When true every refresh answers with a new refresh token and retires the old one. */
  rotateRefreshTokens = false;
  /** Successful token responses so far (tests assert refresh counts). */
  issuedAccessTokens = 0;

  constructor(
    private readonly clock: Clock,
    private readonly clients: Map<string, string>,
    private readonly tokenTtlSeconds = 3600,
  ) {
    this.server.service.on('beforeTokenSigning', (token, req) => {
      if (!('scope' in token.payload)) return;
      const now = Math.floor(this.clock.now().getTime() / 1000);
      const grant = this.grants.get(String((req.body as Body).refresh_token));
      Object.assign(token.payload, {
        iat: now,
        nbf: now - 10,
        exp: now + this.tokenTtlSeconds,
        sub: grant?.userId,
        scope: DIADOC_SCOPE,
        aud: DIADOC_SCOPE,
      });
    });
    this.server.service.on('beforeResponse', (res, req) => this.decide(res, req.body as Body, basicCredentials(req.headers.authorization)));
  }

  private decide(res: { body: unknown; statusCode: number }, body: Body, basic: { name: string; pass: string } | undefined): void {
    const fail = (statusCode: number, error: string, description: string) =>
      Object.assign(res, { statusCode, body: { error, error_description: description } });
    if (body.grant_type !== 'refresh_token') return void fail(400, 'unsupported_grant_type', 'only refresh_token is enabled for this client');
    const clientId = basic?.name ?? body.client_id ?? '';
    const secret = basic?.pass ?? body.client_secret;
    if (!this.clients.has(clientId) || this.clients.get(clientId) !== secret)
      return void fail(401, 'invalid_client', 'unknown client or wrong secret');
    if (body.scope && !body.scope.split(' ').every((s) => [DIADOC_SCOPE, 'offline_access'].includes(s)))
      return void fail(400, 'invalid_scope', `scope must be ${DIADOC_SCOPE}`);
    const grant = this.grants.get(body.refresh_token ?? '');
    if (!grant || grant.clientId !== clientId) return void fail(400, 'invalid_grant', 'refresh token is invalid, expired or revoked');
    const out = res.body as Record<string, unknown>;
    delete out.id_token;
    out.scope = DIADOC_SCOPE;
    if (this.rotateRefreshTokens) {
      this.grants.delete(body.refresh_token!);
      out.refresh_token = this.issueRefreshToken(clientId, grant.userId);
    } else delete out.refresh_token;
    this.issuedAccessTokens += 1;
  }

  /** Starts listening; returns the issuer URL (`http://127.0.0.1:<port>`). */
  async start(host: string, port = 0): Promise<string> {
    await this.server.issuer.keys.generate('RS256');
    await this.server.start(port, host);
    this.server.issuer.url = `http://${host}:${this.server.address().port}`;
    this.jwks = createLocalJWKSet({ keys: this.server.issuer.keys.toJSON() as never });
    return this.server.issuer.url;
  }

  get issuerUrl(): string {
    return this.server.issuer.url!;
  }

  /** A new refresh token of `userId` for `clientId` (what «Кабинет интегратора» hands out). */
  issueRefreshToken(clientId: string, userId: string): string {
    const token = randomUUID();
    this.grants.set(token, { clientId, userId });
    return token;
  }

  /** Revokes every refresh token (the administrator must issue a new one). */
  revokeAll(): void {
    this.grants.clear();
  }

  /** The user id of a valid access token, or null (bad signature, other issuer, expired by the simulator's clock). */
  async verify(accessToken: string): Promise<string | null> {
    try {
      const { payload } = await jwtVerify(accessToken, this.jwks!, { issuer: this.issuerUrl, currentDate: this.clock.now(), algorithms: ['RS256'] });
      return payload.scope === DIADOC_SCOPE && typeof payload.sub === 'string' ? payload.sub : null;
    } catch {
      return null;
    }
  }

  async close(): Promise<void> {
    await this.server.stop();
  }
}
