import { createInterface } from 'node:readline/promises';
import { AccountLockout, AdminAuthService, AdminError, checkNewPassword, hashPassword, USERNAME_RE } from '@app/admin-web';
import { randomIds, systemClock } from '@app/shared';
import { loadRecognitionConfig } from '../config.js';
import { openRecognitionDb } from '../db.js';
import { AdminRepo } from './admin.repo.js';

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
  try {
    if (needsPassword) checkNewPassword(password);
    if (cmd === 'hash') {
      out(await hashPassword(password));
      return 0;
    }
    const config = loadRecognitionConfig(env);
    const username = cmd === 'set-password' ? (flag('--username') ?? config.admin.username) : (rest[0] ?? '');
    if (cmd !== 'list' && !USERNAME_RE.test(username)) {
      out('user name: 1-64 of letters, digits, . _ @ -');
      return 2;
    }
    const db = await openRecognitionDb(config);
    try {
      const auth = new AdminAuthService({
        repo: new AdminRepo(db),
        clock: systemClock,
        ids: randomIds,
        limits: { idleMs: 0, absoluteMs: 0 },
        lockout: new AccountLockout(systemClock, 1, 0), // no sign-in here; never consulted
      });
      if (cmd === 'set-password') {
        await auth.setPassword(username, password);
        out(`password of ${username} set; every session of ${username} has ended`);
      } else if (cmd === 'create-user') {
        const role = flag('--role') ?? 'viewer';
        await auth.createUser(username, password, role);
        out(`created ${username} (${role})`);
      } else if (cmd === 'disable' || cmd === 'enable') {
        await auth.setDisabled(username, cmd === 'disable');
        out(cmd === 'disable' ? `disabled ${username}; its sessions have ended` : `enabled ${username}`);
      } else {
        for (const u of await auth.listUsers())
          out(`${u.username}\t${u.role}\t${u.disabledAt ? `disabled ${u.disabledAt.toISOString()}` : 'active'}`);
      }
      return 0;
    } finally {
      await db.close();
    }
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
