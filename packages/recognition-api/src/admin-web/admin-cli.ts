import {
  checkNewPassword,
  cliAuthService,
  hashPassword,
  runUserCommand,
  stdinLine,
  USERNAME_MESSAGE,
  USERNAME_RE,
  withAdminErrors,
} from '@app/admin-web';
import { loadRecognitionConfig } from '../config.js';
import { openRecognitionDb } from '../db.js';
import { adminAccounts } from './admin-store.js';

const USAGE = [
  'usage: recognition-admin admin hash',
  '       recognition-admin admin set-password [--username NAME]',
  '       recognition-admin admin create-user NAME [--role admin|viewer]',
  '       recognition-admin admin disable NAME | enable NAME | list',
  'Passwords come from ADMIN_NEW_PASSWORD or the first line of standard input (never the command line); 12 to 200 characters.',
].join('\n');

/**
 * The panel's accounts from the command line (`recognition-admin admin …`): `hash` prints an scrypt hash for
 * ADMIN_PASSWORD_HASH; `set-password` writes an account's password (creating it as `admin` when missing);
 * `create-user` adds an account with a role (default `viewer`); `disable`/`enable` close or reopen one (disabling
 * ends its sessions; the last enabled admin cannot be disabled); `list` prints them. Uses the service's
 * DATABASE_URL / DATA_DIR; with embedded PGlite stop the service first. Returns the exit code.
 */
export async function runAdminCli(
  argv: string[],
  out: (line: string) => void = console.log,
  env = process.env,
  readLine = stdinLine,
): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || !['hash', 'set-password', 'create-user', 'disable', 'enable', 'list'].includes(cmd)) {
    out(USAGE);
    return 2;
  }
  const flag = (name: string) => (rest.includes(name) ? (rest[rest.indexOf(name) + 1] ?? '') : undefined);
  const needsPassword = cmd === 'hash' || cmd === 'set-password' || cmd === 'create-user';
  const password = needsPassword ? (env.ADMIN_NEW_PASSWORD ?? (await readLine('Новый пароль: '))) : '';
  return withAdminErrors(out, async () => {
    if (needsPassword) checkNewPassword(password);
    if (cmd === 'hash') {
      out(await hashPassword(password));
      return 0;
    }
    const config = loadRecognitionConfig(env);
    const username = cmd === 'set-password' ? (flag('--username') ?? config.admin.username) : (rest[0] ?? '');
    if (cmd !== 'list' && !USERNAME_RE.test(username)) {
      out(USERNAME_MESSAGE);
      return 2;
    }
    const db = await openRecognitionDb(config);
    try {
      const auth = cliAuthService(adminAccounts(db));
      if (cmd === 'set-password') await runUserCommand(auth, { kind: 'set-password', username, password }, out);
      else if (cmd === 'create-user') await runUserCommand(auth, { kind: 'create', username, password, role: flag('--role') ?? 'viewer' }, out);
      else if (cmd === 'disable' || cmd === 'enable') await runUserCommand(auth, { kind: cmd, username }, out);
      else await runUserCommand(auth, { kind: 'list' }, out);
      return 0;
    } finally {
      await db.close();
    }
  });
}
