import { createInterface } from 'node:readline/promises';
import { AccountLockout, AdminAuthService, AdminError, checkNewPassword, USERNAME_RE } from '@app/admin-web';
import { type Db, randomIds, systemClock } from '@app/shared';
import { ConsoleAccountsRepo } from './console-accounts.repo.js';
import { CONSOLE_ROLES } from './console.module.js';

export const CONSOLE_USAGE = [
  'usage: delivery-operator console user add NAME [--role admin|support]   (default support)',
  '       delivery-operator console user passwd NAME',
  '       delivery-operator console user disable NAME | enable NAME | list',
  'Passwords come from CONSOLE_NEW_PASSWORD or the first line of standard input (never the command line); 12 to 200 characters.',
].join('\n');

/** The account service of the console outside the server (no sign-ins here, so no lockout is ever consulted). */
const accountService = (db: Db) =>
  new AdminAuthService({
    repo: new ConsoleAccountsRepo(db),
    clock: systemClock,
    ids: randomIds,
    limits: { idleMs: 0, absoluteMs: 0 },
    lockout: new AccountLockout(systemClock, 1, 0),
    roles: CONSOLE_ROLES,
    roleError: 'role: admin or support',
  });

/**
 * `delivery-operator console user …` (docs/console.md): `add` creates an account (role `support` unless `--role
 * admin`), `passwd` sets a new password (its sessions end), `disable`/`enable` close or reopen one (disabling ends
 * its sessions; the last enabled admin cannot be disabled), `list` prints them. Returns the exit code: 0 done,
 * 1 no such account, 2 a usage or validation error (the message says which).
 */
export async function runConsoleCommand(
  argv: string[],
  db: Db,
  out: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  readLine: (prompt: string) => Promise<string> = stdinLine,
): Promise<number> {
  const [group, cmd, ...rest] = argv;
  if (group !== 'user' || !cmd || !['add', 'passwd', 'disable', 'enable', 'list'].includes(cmd)) {
    out(CONSOLE_USAGE);
    return 2;
  }
  const username = rest.find((a, i) => !a.startsWith('--') && rest[i - 1] !== '--role') ?? '';
  const role = rest.includes('--role') ? (rest[rest.indexOf('--role') + 1] ?? '') : 'support';
  if (cmd !== 'list' && !USERNAME_RE.test(username)) {
    out('user name: 1-64 of letters, digits, . _ @ -');
    return 2;
  }
  const auth = accountService(db);
  try {
    if (cmd === 'add' || cmd === 'passwd') {
      if (cmd === 'passwd' && !(await new ConsoleAccountsRepo(db).getUser(username))) {
        out(`no console account ${username}`);
        return 1;
      }
      const password = env.CONSOLE_NEW_PASSWORD ?? (await readLine('New password: '));
      checkNewPassword(password);
      if (cmd === 'add') {
        await auth.createUser(username, password, role);
        out(`created ${username} (${role})`);
      } else {
        await auth.setPassword(username, password);
        out(`password of ${username} set; every session of ${username} has ended`);
      }
    } else if (cmd === 'disable' || cmd === 'enable') {
      await auth.setDisabled(username, cmd === 'disable');
      out(cmd === 'disable' ? `disabled ${username}; its sessions have ended` : `enabled ${username}`);
    } else {
      for (const u of await auth.listUsers()) out(`${u.username}\t${u.role}\t${u.disabledAt ? `disabled ${u.disabledAt.toISOString()}` : 'active'}`);
    }
    return 0;
  } catch (err) {
    if (err instanceof AdminError) {
      out(err.message);
      return err.status === 404 ? 1 : 2;
    }
    throw err;
  }
}

async function stdinLine(prompt: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  try {
    process.stderr.write(prompt);
    for await (const line of rl) return line;
    return '';
  } finally {
    rl.close();
  }
}
