import { ApiError, invalid } from '../errors.js';
import type { EdoConnection, EdoConnectionRepo, StoredEdoConnection } from './edo-connection.repo.js';
import type { EdoHealth } from './edo-health.js';
import { BOX_ID } from './edo.schemas.js';
import { SecretBoxError } from '@app/shared';

/** Kontur's production endpoints and scope (reference/diadoc-api.md §1–2). */
export const DIADOC_DEFAULTS = {
  issuerUrl: 'https://identity.kontur.ru',
  apiBaseUrl: 'https://diadoc-api.kontur.ru',
  scope: 'Diadoc.PublicAPI',
} as const;

/** Values to store; on `set`, absent ones keep their stored value (or the Diadoc default for URLs and scope). */
export type EdoConnectionInput = Partial<Omit<EdoConnection, 'operator'>>;

/** What may be shown about a connection: never the client secret or the refresh token themselves. */
export interface EdoConnectionView {
  operator: 'diadoc';
  clientId: string;
  boxId: string;
  issuerUrl: string;
  apiBaseUrl: string;
  scope: string;
  clientSecretSet: boolean;
  refreshTokenSet: boolean;
  revision: number;
  updatedAt: string;
  refreshTokenRotatedAt: string | null;
}

/** Administration of the operator connection, shared by `recognition-admin edo` and the admin panel. */
export interface EdoConnectionAdmin {
  show(): Promise<EdoConnectionView | null>;
  /** @throws ApiError VALIDATION_ERROR naming the bad field (nothing stored then). */
  set(input: EdoConnectionInput): Promise<EdoConnectionView>;
  clear(): Promise<boolean>;
  /** Runs the health check against the stored connection. */
  test(): Promise<{ ok: boolean; body: EdoHealth }>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function url(field: string, value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw invalid(field, `must be an absolute URL, got "${value}"`);
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && LOOPBACK.has(u.hostname)))
    throw invalid(field, 'must be https (plain http only for a local simulator)');
  return value.replace(/\/+$/, '');
}

function view(c: StoredEdoConnection): EdoConnectionView {
  return {
    operator: c.operator,
    clientId: c.clientId,
    boxId: c.boxId,
    issuerUrl: c.issuerUrl,
    apiBaseUrl: c.apiBaseUrl,
    scope: c.scope,
    clientSecretSet: c.clientSecret.length > 0,
    refreshTokenSet: c.refreshToken.length > 0,
    revision: c.revision,
    updatedAt: c.updatedAt.toISOString(),
    refreshTokenRotatedAt: c.refreshTokenRotatedAt?.toISOString() ?? null,
  };
}

/** The default {@link EdoConnectionAdmin}: validates, seals and stores through the repository. */
/** `scheme://host:port` of a URL, what a secret is bound to. */
const origin = (u: string): string => new URL(u).origin;

export class EdoConnectionService implements EdoConnectionAdmin {
  constructor(
    private readonly repo: EdoConnectionRepo,
    private readonly healthCheck: () => Promise<{ ok: boolean; body: EdoHealth }>,
  ) {}

  async show(): Promise<EdoConnectionView | null> {
    try {
      const c = await this.repo.get();
      return c && view(c);
    } catch (err) {
      if (err instanceof SecretBoxError)
        throw new ApiError(
          'EDO_NOT_CONFIGURED',
          'the stored connection cannot be decrypted with the current master key (EDO_MASTER_KEY); restore that key or store the connection again',
        );
      throw err;
    }
  }

  /**
   * Stores the connection; absent fields keep the stored values, except that the client secret and refresh token
   * must be given again when the issuer or API host changes (docs/admin-panel.md).
   * @throws ApiError VALIDATION_ERROR naming the field; nothing is stored then.
   */
  async set(input: EdoConnectionInput): Promise<EdoConnectionView> {
    const stored = await this.repo.get().catch(() => null);
    const pick = <K extends keyof EdoConnectionInput>(k: K) => (input[k] ?? stored?.[k])?.trim();
    const need = (k: 'clientId' | 'clientSecret' | 'refreshToken' | 'boxId') => {
      const v = pick(k);
      if (!v) throw invalid(k, 'is required');
      if (v.length > 4096) throw invalid(k, 'is too long');
      return v;
    };
    const boxId = need('boxId');
    if (!new RegExp(BOX_ID).test(boxId)) throw invalid('boxId', 'must be a Diadoc box id: a GUID or <32 hex digits>@diadoc.ru');
    const issuerUrl = url('issuerUrl', pick('issuerUrl') ?? DIADOC_DEFAULTS.issuerUrl);
    const apiBaseUrl = url('apiBaseUrl', pick('apiBaseUrl') ?? DIADOC_DEFAULTS.apiBaseUrl);
    // Stored secrets are bound to the hosts they were entered for: a new issuer or API host gets them only when
    // typed again, or anyone able to edit the form could have the next check send them to a host of their own.
    if (stored && (origin(issuerUrl) !== origin(stored.issuerUrl) || origin(apiBaseUrl) !== origin(stored.apiBaseUrl))) {
      for (const k of ['clientSecret', 'refreshToken'] as const)
        if (!input[k]?.trim())
          throw invalid(k, 'must be entered again when the issuer or API host changes (stored secrets are never sent to a new host)');
    }
    const conn: EdoConnection = {
      operator: 'diadoc',
      clientId: need('clientId'),
      clientSecret: need('clientSecret'),
      refreshToken: need('refreshToken'),
      boxId,
      issuerUrl,
      apiBaseUrl,
      scope: pick('scope') || DIADOC_DEFAULTS.scope,
    };
    await this.repo.save(conn);
    const saved = await this.repo.get();
    if (!saved) throw new ApiError('INTERNAL_ERROR', 'connection vanished after saving');
    return view(saved);
  }

  clear(): Promise<boolean> {
    return this.repo.delete();
  }

  test(): Promise<{ ok: boolean; body: EdoHealth }> {
    return this.healthCheck();
  }
}
