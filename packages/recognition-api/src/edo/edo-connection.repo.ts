import type { Clock, Queryable } from '@app/shared';
import type { SecretBox } from '@app/shared';

/** The operator connection in plain form (only in memory; secrets are sealed in the database). */
export interface EdoConnection {
  operator: 'diadoc';
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  boxId: string;
  issuerUrl: string;
  apiBaseUrl: string;
  scope: string;
}

/** A stored connection with its revision (bumped by every save) and times. */
export interface StoredEdoConnection extends EdoConnection {
  revision: number;
  updatedAt: Date;
  refreshTokenRotatedAt: Date | null;
}

interface Row {
  operator: 'diadoc';
  client_id: string;
  client_secret_enc: string;
  refresh_token_enc: string;
  box_id: string;
  issuer_url: string;
  api_base_url: string;
  scope: string;
  revision: number;
  updated_at: Date;
  refresh_token_rotated_at: Date | null;
}

/**
 * The `edo_connection` row (one per installation). Secrets are sealed with the {@link SecretBox} on the way in and
 * opened on the way out; `get` throws SecretBoxError when the master key does not match.
 */
export class EdoConnectionRepo {
  constructor(
    private readonly db: Queryable,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  async get(): Promise<StoredEdoConnection | null> {
    const r = (await this.db.query<Row>("SELECT * FROM edo_connection WHERE id = 'default'"))[0];
    if (!r) return null;
    return {
      operator: r.operator,
      clientId: r.client_id,
      clientSecret: this.box.open(r.client_secret_enc, 'client_secret'),
      refreshToken: this.box.open(r.refresh_token_enc, 'refresh_token'),
      boxId: r.box_id,
      issuerUrl: r.issuer_url,
      apiBaseUrl: r.api_base_url,
      scope: r.scope,
      revision: Number(r.revision),
      updatedAt: new Date(r.updated_at),
      refreshTokenRotatedAt: r.refresh_token_rotated_at ? new Date(r.refresh_token_rotated_at) : null,
    };
  }

  /** Revision of the stored connection (cheap check before every gateway call), or null. */
  async revision(): Promise<number | null> {
    const r = (await this.db.query<{ revision: number }>("SELECT revision FROM edo_connection WHERE id = 'default'"))[0];
    return r ? Number(r.revision) : null;
  }

  /** Stores (inserts or replaces) the connection; returns the new revision. */
  async save(c: EdoConnection): Promise<number> {
    const rows = await this.db.query<{ revision: number }>(
      `INSERT INTO edo_connection (id, operator, client_id, client_secret_enc, refresh_token_enc, box_id, issuer_url, api_base_url, scope, revision, updated_at)
       VALUES ('default', $1, $2, $3, $4, $5, $6, $7, $8, 1, $9)
       ON CONFLICT (id) DO UPDATE SET operator = $1, client_id = $2, client_secret_enc = $3, refresh_token_enc = $4, box_id = $5,
         issuer_url = $6, api_base_url = $7, scope = $8, revision = edo_connection.revision + 1, updated_at = $9, refresh_token_rotated_at = NULL
       RETURNING revision`,
      [
        c.operator,
        c.clientId,
        this.box.seal(c.clientSecret, 'client_secret'),
        this.box.seal(c.refreshToken, 'refresh_token'),
        c.boxId,
        c.issuerUrl,
        c.apiBaseUrl,
        c.scope,
        this.clock.now(),
      ],
    );
    return Number(rows[0]!.revision);
  }

  /**
   * Stores a refresh token the provider rotated and bumps the revision, so other instances (which still hold the
   * old token, soon retired by the provider) rebuild their client from the row. Only when the row is still at
   * `revision`: a connection replaced meanwhile is not overwritten. Returns the new revision, or null.
   */
  async saveRotatedRefreshToken(revision: number, refreshToken: string): Promise<number | null> {
    const rows = await this.db.query<{ revision: number }>(
      `UPDATE edo_connection SET refresh_token_enc = $2, refresh_token_rotated_at = $3, revision = revision + 1
       WHERE id = 'default' AND revision = $1 RETURNING revision`,
      [revision, this.box.seal(refreshToken, 'refresh_token'), this.clock.now()],
    );
    return rows[0] ? Number(rows[0].revision) : null;
  }

  async delete(): Promise<boolean> {
    return (await this.db.query("DELETE FROM edo_connection WHERE id = 'default' RETURNING id")).length > 0;
  }
}
