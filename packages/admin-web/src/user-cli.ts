import { createInterface } from 'node:readline/promises';
import { randomIds, systemClock } from '@app/shared';
import { AccountLockout } from './account-lockout.js';
import { AdminError } from './admin-errors.js';
import { type AdminAccountStore, AdminAuthService } from './auth.service.js';

/** The message a command prints for a user name that USERNAME_RE refuses. */
export const USERNAME_MESSAGE = 'user name: 1-64 of letters, digits, . _ @ -';

/**
 * The account service of a CLI (system clock, random ids): no sign-in happens there, so the session limits and the
 * lockout are never consulted. `roles`/`roleError` as for AdminAuthService (default: the recognition panel's).
 */
export function cliAuthService(repo: AdminAccountStore, o: { roles?: readonly string[]; roleError?: string } = {}): AdminAuthService {
  return new AdminAuthService({
    repo,
    clock: systemClock,
    ids: randomIds,
    limits: { idleMs: 0, absoluteMs: 0 },
    lockout: new AccountLockout(systemClock, 1, 0),
    ...o,
  });
}

/** One account command of a service's CLI, already parsed (each service keeps its own verbs and flags). */
export type UserCommand =
  | { kind: 'create'; username: string; password: string; role: string }
  | { kind: 'set-password'; username: string; password: string }
  | { kind: 'disable' | 'enable'; username: string }
  | { kind: 'list' };

/**
 * Runs one account command through the account service and prints what was done, one line at a time: `created NAME
 * (ROLE)`, `password of NAME set; …`, `disabled NAME; …`, `enabled NAME`, or the list as `NAME<TAB>ROLE<TAB>active`
 * (or `disabled <ISO time>`). Setting a password or disabling ends the account's sessions; the last enabled top-role
 * account cannot be disabled (AdminAuthService). Errors: see `withAdminErrors`.
 */
export async function runUserCommand(auth: AdminAuthService, c: UserCommand, out: (line: string) => void): Promise<void> {
  if (c.kind === 'create') {
    await auth.createUser(c.username, c.password, c.role);
    out(`created ${c.username} (${c.role})`);
  } else if (c.kind === 'set-password') {
    await auth.setPassword(c.username, c.password);
    out(`password of ${c.username} set; every session of ${c.username} has ended`);
  } else if (c.kind === 'disable' || c.kind === 'enable') {
    await auth.setDisabled(c.username, c.kind === 'disable');
    out(c.kind === 'disable' ? `disabled ${c.username}; its sessions have ended` : `enabled ${c.username}`);
  } else {
    for (const u of await auth.listUsers()) out(`${u.username}\t${u.role}\t${u.disabledAt ? `disabled ${u.disabledAt.toISOString()}` : 'active'}`);
  }
}

/**
 * Runs a command body and turns an AdminError into its message and an exit code: 1 for a missing account (404),
 * 2 for a usage or validation error. Any other error is thrown on.
 */
export async function withAdminErrors(out: (line: string) => void, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof AdminError) {
      out(err.message);
      return err.status === 404 ? 1 : 2;
    }
    throw err;
  }
}

/** The first line of standard input after writing `prompt` to standard error (a password never comes from argv). */
export async function stdinLine(prompt: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  try {
    process.stderr.write(prompt);
    for await (const line of rl) return line;
    return '';
  } finally {
    rl.close();
  }
}
