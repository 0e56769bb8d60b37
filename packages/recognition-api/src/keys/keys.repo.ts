import { randomBytes } from 'node:crypto';
import { sha256Hex, type Clock, type Queryable } from '@app/shared';
import { newCallbackSecret } from '../callbacks/callback-signature.js';

/**
 * What a key may call: `recognition` (documents and recognition) and `edo` (the /api/v1/edo gateway).
 * Keys created before scopes existed have `recognition` only. Ours: see docs/edo-gateway.md, Access control.
 */
export const API_SCOPES = ['recognition', 'edo'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** Parses a comma list such as `recognition,edo`; null when empty or a name is unknown. */
export function parseScopes(list: string): ApiScope[] | null {
  const names = [
    ...new Set(
      list
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  return names.length > 0 && names.every((n) => (API_SCOPES as readonly string[]).includes(n)) ? (names as ApiScope[]) : null;
}

/** An API key as stored: never the key itself, only its SHA-256 and a display prefix. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  keyPrefix: string;
  scopes: ApiScope[];
  createdAt: Date;
  deactivatedAt: Date | null;
}

/** An `api_keys` row as the record's queries select it. */
export interface ApiKeyRow {
  id: string;
  name: string;
  key_prefix: string;
  scopes: ApiScope[];
  created_at: Date;
  deactivated_at: Date | null;
}

const toRecord = (r: ApiKeyRow): ApiKeyRecord => ({
  id: r.id,
  name: r.name,
  keyPrefix: r.key_prefix,
  scopes: r.scopes,
  createdAt: new Date(r.created_at),
  deactivatedAt: r.deactivated_at ? new Date(r.deactivated_at) : null,
});

/**
 * API keys (Spec: Authentication). A key is `rk_` + 32 random bytes (base64url, 256 bits), so an unsalted
 * SHA-256 is safe to store and look up by: brute force over 2^256 is out of reach, and the lookup is by hash.
 */
export class KeysRepo {
  /** When each key was last written as used (ms), so `touch` writes at most once a minute per key and process. */
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly db: Queryable,
    private readonly clock: Clock,
  ) {}

  /**
   * Creates a key; returns the plain key and its callback signing secret (both shown once) and its record.
   * `plainKey` lets the demo key be fixed; `scopes` default to `recognition` only.
   */
  async create(
    name: string,
    plainKey: string = `rk_${randomBytes(32).toString('base64url')}`,
    scopes: ApiScope[] = ['recognition'],
  ): Promise<{ key: string; callbackSecret: string; record: ApiKeyRecord }> {
    const id = `key_${randomBytes(8).toString('hex')}`;
    const callbackSecret = newCallbackSecret();
    const rows = await this.db.query<ApiKeyRow>(
      `INSERT INTO api_keys (id, name, key_hash, key_prefix, created_at, scopes, callback_secret) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [id, name, sha256Hex(plainKey), plainKey.slice(0, 8), this.clock.now(), scopes, callbackSecret],
    );
    return { key: plainKey, callbackSecret, record: toRecord(rows[0]!) };
  }

  /**
   * Replaces a key's callback signing secret (Standard Webhooks `whsec_…`) and returns the new one, to be shown
   * once; null when there is no such key. Callbacks still pending are signed with the new secret.
   */
  async rotateCallbackSecret(id: string): Promise<string | null> {
    const secret = newCallbackSecret();
    const rows = await this.db.query('UPDATE api_keys SET callback_secret = $2 WHERE id = $1 RETURNING id', [id, secret]);
    return rows.length > 0 ? secret : null;
  }

  /** The active key's id for a presented plain key, or null when unknown or deactivated. */
  async findActiveId(plainKey: string): Promise<string | null> {
    return (await this.findActive(plainKey))?.id ?? null;
  }

  /** The active key's id and scopes for a presented plain key, or null when unknown or deactivated. */
  async findActive(plainKey: string): Promise<{ id: string; scopes: ApiScope[] } | null> {
    const rows = await this.db.query<{ id: string; scopes: ApiScope[] }>(
      'SELECT id, scopes FROM api_keys WHERE key_hash = $1 AND deactivated_at IS NULL',
      [sha256Hex(plainKey)],
    );
    return rows[0] ?? null;
  }

  /** The callback secret of a key, or null when the key has none (tests, support). */
  async secretFor(apiKeyId: string): Promise<string | null> {
    const rows = await this.db.query<{ callback_secret: string | null }>('SELECT callback_secret FROM api_keys WHERE id = $1', [apiKeyId]);
    return rows[0]?.callback_secret ?? null;
  }

  /**
   * The secret a callback is signed with: its key's, else (a row without a key) its document's key's. A key
   * without a secret gets one here (never shown; `recognition-admin keys callback-secret` rotates and prints it), so every
   * callback is signed (docs/decisions.md "Callback delivery"). Null only when neither the key nor the document exists any more.
   */
  async signingSecret(cb: { apiKeyId: string | null; documentId: string }, fresh: string): Promise<string | null> {
    const rows = await this.db.query<{ callback_secret: string | null }>(
      `UPDATE api_keys SET callback_secret = coalesce(callback_secret, $3)
       WHERE id = coalesce($1, (SELECT api_key_id FROM documents WHERE id = $2)) RETURNING callback_secret`,
      [cb.apiKeyId, cb.documentId, fresh],
    );
    return rows[0]?.callback_secret ?? null;
  }

  /** Replaces the scopes of a key (by id); false when there is no such key. */
  async setScopes(id: string, scopes: ApiScope[]): Promise<boolean> {
    return (await this.db.query('UPDATE api_keys SET scopes = $2 WHERE id = $1 RETURNING id', [id, scopes])).length > 0;
  }

  /** Adds scopes to the key with this plain value (the demo key of an older data folder gains `edo`). */
  async grantScopes(plainKey: string, scopes: ApiScope[]): Promise<void> {
    await this.db.query('UPDATE api_keys SET scopes = ARRAY(SELECT DISTINCT unnest(scopes || $2::text[]) ORDER BY 1 DESC) WHERE key_hash = $1', [
      sha256Hex(plainKey),
      scopes,
    ]);
  }

  /** True when a key with this plain value exists (active or not). */
  async exists(plainKey: string): Promise<boolean> {
    return (await this.db.query('SELECT 1 FROM api_keys WHERE key_hash = $1', [sha256Hex(plainKey)])).length > 0;
  }

  async list(): Promise<ApiKeyRecord[]> {
    return (await this.db.query<ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at, id')).map(toRecord);
  }

  /** Deactivates a key; false when there is no such active key. Documents stay, owned by the inactive key. */
  async deactivate(id: string): Promise<boolean> {
    const rows = await this.db.query('UPDATE api_keys SET deactivated_at = $2 WHERE id = $1 AND deactivated_at IS NULL RETURNING id', [
      id,
      this.clock.now(),
    ]);
    return rows.length > 0;
  }

  /** Reactivates a deactivated key (admin panel); false when there is no such deactivated key. */
  async reactivate(id: string): Promise<boolean> {
    const rows = await this.db.query('UPDATE api_keys SET deactivated_at = NULL WHERE id = $1 AND deactivated_at IS NOT NULL RETURNING id', [id]);
    return rows.length > 0;
  }

  /** Records that a key was used (admin panel "last used"); at most one write a minute per key. */
  async touch(id: string): Promise<void> {
    const now = this.clock.now();
    const last = this.touched.get(id);
    if (last !== undefined && now.getTime() - last < 60_000) return;
    this.touched.set(id, now.getTime());
    await this.db.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [id, now]);
  }

  /**
   * Adds counted requests and errors to a key's hour (api_key_usage, keys/key-usage.ts). The row of a key deleted
   * meanwhile is skipped rather than failing the flush of every other key.
   */
  async addUsage(keyId: string, hour: Date, requests: number, errors: number): Promise<void> {
    await this.db.query(
      `INSERT INTO api_key_usage (api_key_id, hour, requests, errors) SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM api_keys WHERE id = $1)
       ON CONFLICT (api_key_id, hour) DO UPDATE SET requests = api_key_usage.requests + $3, errors = api_key_usage.errors + $4`,
      [keyId, hour, requests, errors],
    );
  }
}
