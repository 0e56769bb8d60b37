import { checkNewPassword, cliAuthService, runUserCommand, stdinLine, USERNAME_MESSAGE, USERNAME_RE, withAdminErrors } from '@app/admin-web';
import type { Db } from '@app/shared';
import { CONSOLE_ROLES, consoleAccounts } from './console.module.js';

export const CONSOLE_USAGE = [
  'usage: delivery-operator console user add NAME [--role admin|support]   (default support)',
  '       delivery-operator console user passwd NAME',
  '       delivery-operator console user disable NAME | enable NAME | list',
  'Passwords come from CONSOLE_NEW_PASSWORD or the first line of standard input (never the command line); 12 to 200 characters.',
].join('\n');

/** The account service of the console outside the server. */
const accountService = (db: Db) => cliAuthService(consoleAccounts(db), { roles: CONSOLE_ROLES, roleError: 'role: admin or support' });

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
    out(USERNAME_MESSAGE);
    return 2;
  }
  const auth = accountService(db);
  return withAdminErrors(out, async () => {
    if (cmd === 'add' || cmd === 'passwd') {
      if (cmd === 'passwd' && !(await consoleAccounts(db).getUser(username))) {
        out(`no console account ${username}`);
        return 1;
      }
      const password = env.CONSOLE_NEW_PASSWORD ?? (await readLine('New password: '));
      checkNewPassword(password);
      await runUserCommand(auth, cmd === 'add' ? { kind: 'create', username, password, role } : { kind: 'set-password', username, password }, out);
    } else if (cmd === 'disable' || cmd === 'enable') {
      await runUserCommand(auth, { kind: cmd, username }, out);
    } else {
      await runUserCommand(auth, { kind: 'list' }, out);
    }
    return 0;
  });
}
