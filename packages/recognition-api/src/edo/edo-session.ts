import { ApiError } from '../errors.js';
import type { EdoOperator, OperatorFactory, TokenStatus } from './edo.port.js';
import type { EdoConnectionRepo, StoredEdoConnection } from './edo-connection.repo.js';
import { SecretBoxError } from '@app/shared';

/** The factory type is the port's; re-exported for the module that wires the session. */
export type { OperatorFactory } from './edo.port.js';

/**
 * Keeps one operator client for the current connection revision: built on first use, reused (with its cached
 * access token) while the revision stays, rebuilt when `recognition-admin edo set` or the admin panel stores a new connection.
 */
export class EdoSession {
  private current?: { revision: number; operator: EdoOperator };
  private building?: Promise<EdoOperator>;

  constructor(
    private readonly repo: EdoConnectionRepo,
    private readonly factory: OperatorFactory,
  ) {}

  /** The operator for the stored connection. @throws ApiError EDO_NOT_CONFIGURED (none stored, or undecryptable). */
  async operator(): Promise<EdoOperator> {
    const revision = await this.repo.revision();
    if (revision === null) {
      await this.reset();
      throw new ApiError(
        'EDO_NOT_CONFIGURED',
        'no e-document operator connection is configured; store one with recognition-admin edo set (docs/edo-gateway.md)',
      );
    }
    if (this.current?.revision === revision) return this.current.operator;
    this.building ??= this.build().finally(() => (this.building = undefined));
    return this.building;
  }

  private async build(): Promise<EdoOperator> {
    let conn: StoredEdoConnection | null;
    try {
      conn = await this.repo.get();
    } catch (err) {
      if (err instanceof SecretBoxError)
        throw new ApiError(
          'EDO_NOT_CONFIGURED',
          'the stored operator connection cannot be decrypted with the current master key (EDO_MASTER_KEY); restore that key or store the connection again with recognition-admin edo set',
        );
      throw err;
    }
    if (!conn) throw new ApiError('EDO_NOT_CONFIGURED', 'no e-document operator connection is configured; store one with recognition-admin edo set');
    const entry = { revision: conn.revision, operator: undefined as unknown as EdoOperator };
    // A rotation bumps the stored revision (other instances must reload the token); this client already holds the
    // new token, so it follows the revision instead of being rebuilt (which would refresh, and rotate, again).
    entry.operator = this.factory(conn, async (token) => {
      const next = await this.repo.saveRotatedRefreshToken(entry.revision, token);
      if (next !== null) entry.revision = next;
    });
    const operator = entry.operator;
    const old = this.current;
    this.current = entry;
    await old?.operator.close();
    return operator;
  }

  /** The token status of this process's client for the stored revision, or null (not built yet, or stale). */
  async tokenStatus(): Promise<TokenStatus | null> {
    const revision = await this.repo.revision();
    return this.current && this.current.revision === revision ? (this.current.operator.tokenStatus?.() ?? null) : null;
  }

  async reset(): Promise<void> {
    const old = this.current;
    this.current = undefined;
    await old?.operator.close();
  }
}
