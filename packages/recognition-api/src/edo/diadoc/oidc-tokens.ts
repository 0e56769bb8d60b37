import * as oidc from 'openid-client';
import type { Clock } from '@app/shared';
import { ApiError } from '../../errors.js';
import type { TokenStatus } from '../edo.port.js';
import { unreachable } from './diadoc-errors.js';

/** What the token source needs: the OIDC client of the connection and where a rotated refresh token goes. */
export interface OidcTokenOptions {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  /** Default `Diadoc.PublicAPI`. */
  scope: string;
  clock: Clock;
  /** Per call to the identity provider, ms. */
  timeoutMs: number;
  /** Called when the provider returns a new refresh token (rotation); the caller persists it. */
  onRotated?: (refreshToken: string) => Promise<void>;
}

/** Refresh this long before `expires_in` runs out, so a token never expires in flight. */
const EARLY_REFRESH_MS = 60_000;

const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

/**
 * Bearer access tokens for the operator from an OpenID Connect provider (identity.kontur.ru) by the refresh-token
 * grant, through `openid-client` (discovery, client_secret_post). Tokens are cached until shortly before
 * `expires_in`; concurrent callers share one refresh. A rejected refresh token is EDO_UNAUTHORIZED with a message
 * telling the administrator what to renew; an unreachable provider is EDO_UNAVAILABLE.
 */
export class OidcTokenSource {
  private config?: oidc.Configuration;
  private token?: { value: string; expiresAt: number; obtainedAt: number };
  private inFlight?: Promise<string>;
  private refreshToken: string;

  constructor(private readonly opts: OidcTokenOptions) {
    this.refreshToken = opts.refreshToken;
  }

  /** A valid access token: the cached one, or a fresh one when it is missing or about to expire. */
  async accessToken(): Promise<string> {
    if (this.token && this.opts.clock.now().getTime() < this.token.expiresAt - EARLY_REFRESH_MS) return this.token.value;
    return this.refresh();
  }

  /** When the cached access token was obtained and when it expires; null before the first grant. */
  status(): TokenStatus | null {
    return this.token ? { obtainedAt: new Date(this.token.obtainedAt), expiresAt: new Date(this.token.expiresAt) } : null;
  }

  /** Forgets the cached token (after the operator's 401) and gets a new one. */
  async refresh(): Promise<string> {
    this.token = undefined;
    this.inFlight ??= this.grant().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async discover(): Promise<oidc.Configuration> {
    if (this.config) return this.config;
    const url = new URL(this.opts.issuerUrl);
    try {
      this.config = await oidc.discovery(url, this.opts.clientId, undefined, oidc.ClientSecretPost(this.opts.clientSecret), {
        // Plain http only for a provider on this machine (the simulator); a remote one must be https.
        execute: url.protocol === 'http:' && isLoopback(url) ? [oidc.allowInsecureRequests] : [],
        timeout: Math.max(1, Math.ceil(this.opts.timeoutMs / 1000)),
      });
      return this.config;
    } catch (err) {
      if (err instanceof oidc.ClientError && url.protocol === 'http:' && !isLoopback(url)) {
        throw new ApiError('EDO_UNAUTHORIZED', `the identity provider URL must be https: ${this.opts.issuerUrl}`);
      }
      throw unreachable(`the identity provider ${this.opts.issuerUrl}`, err);
    }
  }

  private async grant(): Promise<string> {
    const config = await this.discover();
    let res: Awaited<ReturnType<typeof oidc.refreshTokenGrant>>;
    try {
      res = await oidc.refreshTokenGrant(config, this.refreshToken, { scope: this.opts.scope });
    } catch (err) {
      throw this.grantError(err);
    }
    // The response's own expires_in, not expiresIn(): that one counts down against the real wall clock, so the
    // lifetime would depend on how long the grant took rather than on the injected clock.
    const ttlS = typeof res.expires_in === 'number' && res.expires_in > 0 ? res.expires_in : 3600;
    const now = this.opts.clock.now().getTime();
    this.token = { value: res.access_token, expiresAt: now + ttlS * 1000, obtainedAt: now };
    if (res.refresh_token && res.refresh_token !== this.refreshToken) {
      this.refreshToken = res.refresh_token;
      await this.opts.onRotated?.(res.refresh_token);
    }
    return res.access_token;
  }

  private grantError(err: unknown): ApiError {
    if (err instanceof oidc.ResponseBodyError) {
      const said = `${err.error}${err.error_description ? `: ${err.error_description}` : ''}`;
      if (err.error === 'invalid_grant') {
        return new ApiError(
          'EDO_UNAUTHORIZED',
          `the identity provider rejected the refresh token (${said}); issue a new refresh token for the box user (Diadoc integrator cabinet) and store it with recognition-admin edo set --refresh-token`,
        );
      }
      if (err.error === 'invalid_client' || err.error === 'unauthorized_client') {
        return new ApiError(
          'EDO_UNAUTHORIZED',
          `the identity provider rejected the client id or secret (${said}); check them in the Diadoc integrator cabinet and store them with recognition-admin edo set`,
        );
      }
      return new ApiError('EDO_UNAUTHORIZED', `the identity provider refused the token request (${said})`);
    }
    if (err instanceof oidc.WWWAuthenticateChallengeError) {
      return new ApiError(
        'EDO_UNAUTHORIZED',
        `the identity provider rejected the client credentials (${err.message}); check the client id and secret`,
      );
    }
    return unreachable(`the identity provider ${this.opts.issuerUrl}`, err);
  }
}
