import { createInterface } from 'node:readline/promises';
import { systemClock, randomIds } from '@app/shared';
import { loadRecognitionConfig } from '../config.js';
import { openRecognitionDb } from '../db.js';
import { AccountLockout } from './account-lockout.js';
import { AdminAuthService, checkNewPassword } from './admin-auth.service.js';
import { AdminError } from './admin-errors.js';
import { AdminRepo } from './admin.repo.js';
import { hashPassword } from './password.js';

/**
 * The administrator account for production (issue 10, item 2):
 *   tsx packages/recognition-api/src/admin-web/admin-cli.ts hash            → an scrypt hash for ADMIN_PASSWORD_HASH
 *   tsx packages/recognition-api/src/admin-web/admin-cli.ts set-password [--username admin]
 * The password is read from ADMIN_NEW_PASSWORD or from the first line of standard input (never from the command
 * line, which ends up in the shell history). `set-password` uses the service's DATABASE_URL / DATA_DIR and ends every
 * session of the account; with embedded PGlite stop the service first.
 */
export async function runAdminCli(
  argv: string[],
  out: (line: string) => void = console.log,
  env = process.env,
  readLine = stdinLine,
): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd !== 'hash' && cmd !== 'set-password') {
    out('usage: admin-cli hash | set-password [--username NAME]   (password from ADMIN_NEW_PASSWORD or standard input)');
    return 2;
  }
  const password = env.ADMIN_NEW_PASSWORD ?? (await readLine('Новый пароль: '));
  try {
    checkNewPassword(password);
  } catch (err) {
    if (err instanceof AdminError) {
      out(err.message);
      return 2;
    }
    throw err;
  }
  if (cmd === 'hash') {
    out(await hashPassword(password));
    return 0;
  }
  const i = rest.indexOf('--username');
  const config = loadRecognitionConfig(env);
  const username = i >= 0 ? (rest[i + 1] ?? '') : config.admin.username;
  if (!/^[A-Za-z0-9._@-]{1,64}$/.test(username)) {
    out('--username: 1-64 of letters, digits, . _ @ -');
    return 2;
  }
  const db = await openRecognitionDb(config);
  try {
    const auth = new AdminAuthService({
      repo: new AdminRepo(db),
      clock: systemClock,
      ids: randomIds,
      limits: { idleMs: 0, absoluteMs: 0 },
      lockout: new AccountLockout(systemClock, 1, 0), // setPassword only; never consulted
    });
    await auth.setPassword(username, password);
    out(`password of ${username} set; every session of ${username} has ended`);
    return 0;
  } finally {
    await db.close();
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

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  runAdminCli(process.argv.slice(2)).then((code) => process.exit(code));
}
