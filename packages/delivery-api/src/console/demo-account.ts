import { randomBytes } from 'node:crypto';
import { verifyPassword } from '@app/admin-web';
import type { ConsoleCore } from './console.module.js';

/** The demo's console account (`npm start`). */
export const DEMO_CONSOLE_USER = 'support-admin';

/**
 * Makes sure the demo's console account (role `admin`) exists: created with `demoPassword` (DEMO_CONSOLE_PASSWORD)
 * or a generated 18-character password; an existing account keeps its password unless `demoPassword` differs.
 * Returns the password when it is known to be current (`knownPassword`: the one written at an earlier start), else
 * null (changed in the console or with `delivery-operator console user passwd`).
 */
export async function ensureConsoleDemoAccount(
  core: ConsoleCore,
  o: { demoPassword?: string; knownPassword?: string } = {},
): Promise<{ username: string; password: string | null }> {
  const username = DEMO_CONSOLE_USER;
  const user = await core.accounts.getUser(username);
  if (!user) {
    const password = o.demoPassword || randomBytes(14).toString('base64url').slice(0, 18);
    await core.auth.createUser(username, password, 'admin');
    return { username, password };
  }
  if (o.demoPassword) {
    if (!(await verifyPassword(o.demoPassword, user.passwordHash))) await core.auth.setPassword(username, o.demoPassword);
    return { username, password: o.demoPassword };
  }
  const known = o.knownPassword && (await verifyPassword(o.knownPassword, user.passwordHash)) ? o.knownPassword : null;
  return { username, password: known };
}
