import { randomBytes } from 'node:crypto';
import type { Clock } from '@app/shared';
import { type AdminAccountsRepo, hashPassword, parsePasswordHash, verifyPassword } from '@app/admin-web';

/** How the administrator account is provisioned at start-up (config.ts `admin`). */
export interface AdminAccountOptions {
  username: string;
  /** ADMIN_PASSWORD_HASH (production): the stored hash is replaced by it when different. */
  passwordHash?: string;
  /** DEMO_ADMIN_PASSWORD: the demo password to use instead of a generated one. */
  demoPassword?: string;
  /** The demo password kept from an earlier start (shown again only while it still matches). */
  knownPassword?: string;
}

/** A generated demo password: 18 characters of base64url (108 bits). */
export const generatePassword = (): string => randomBytes(14).toString('base64url').slice(0, 18);

/**
 * Makes sure the administrator account exists (docs/admin-panel.md). Production (`passwordHash`): the account gets that
 * hash, and no password is known. Otherwise the embedded default: an existing account keeps its password unless
 * DEMO_ADMIN_PASSWORD differs; a missing one is created with DEMO_ADMIN_PASSWORD or a generated password.
 * Returns the password when it is known to be the current one (for the `npm start` banner), else null.
 */
export async function ensureAdminAccount(
  repo: AdminAccountsRepo,
  clock: Clock,
  o: AdminAccountOptions,
): Promise<{ username: string; password: string | null }> {
  const username = o.username;
  const user = await repo.getUser(username);
  if (o.passwordHash) {
    if (!parsePasswordHash(o.passwordHash)) throw new Error('ADMIN_PASSWORD_HASH is not an scrypt hash of recognition-admin admin hash');
    if (user?.passwordHash !== o.passwordHash) await repo.upsertUser(username, o.passwordHash, clock.now());
    return { username, password: null };
  }
  if (user) {
    if (o.demoPassword) {
      if (!(await verifyPassword(o.demoPassword, user.passwordHash)))
        await repo.upsertUser(username, await hashPassword(o.demoPassword), clock.now());
      return { username, password: o.demoPassword };
    }
    const known = o.knownPassword && (await verifyPassword(o.knownPassword, user.passwordHash)) ? o.knownPassword : null;
    return { username, password: known };
  }
  const password = o.demoPassword ?? generatePassword();
  await repo.upsertUser(username, await hashPassword(password), clock.now());
  return { username, password };
}
