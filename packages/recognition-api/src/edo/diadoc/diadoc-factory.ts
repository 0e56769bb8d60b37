import type { Clock } from '@app/shared';
import { DiadocOperator } from './diadoc.http.js';
import type { OperatorFactory } from '../edo.port.js';
import { OidcTokenSource } from './oidc-tokens.js';

/** Options of the real adapter: per-call timeout and, for tests, a sleep that does not wait. */
export interface DiadocFactoryOptions {
  clock: Clock;
  /** Per call to Diadoc or the identity provider, ms (EDO_TIMEOUT_MS, default 15000). */
  timeoutMs: number;
  sleep?: (ms: number) => Promise<void>;
}

/** The operator factory for Kontur.Diadoc: an OIDC token source and the HTTP adapter for a stored connection. */
export function diadocOperatorFactory(opts: DiadocFactoryOptions): OperatorFactory {
  return (conn, onRotated) => {
    const tokens = new OidcTokenSource({
      issuerUrl: conn.issuerUrl,
      clientId: conn.clientId,
      clientSecret: conn.clientSecret,
      refreshToken: conn.refreshToken,
      scope: conn.scope,
      clock: opts.clock,
      timeoutMs: opts.timeoutMs,
      onRotated,
    });
    return new DiadocOperator(conn.boxId, { baseUrl: conn.apiBaseUrl, tokens, clock: opts.clock, timeoutMs: opts.timeoutMs, sleep: opts.sleep });
  };
}
