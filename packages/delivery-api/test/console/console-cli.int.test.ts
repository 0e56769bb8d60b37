import { verifyPassword } from '@app/admin-web';
import { adminSettings } from '@app/admin-web';
import { ManualClock, randomIds, type Db } from '@app/shared';
import { openTestDb } from '@app/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConsoleCommand } from '../../src/console/console-cli.js';
import { consoleAccounts, createConsoleCore } from '../../src/console/console.module.js';
import { DEMO_CONSOLE_USER, ensureConsoleDemoAccount } from '../../src/console/demo-account.js';
import { MIGRATIONS, T0 } from '../harness.js';

describe('delivery-operator console user … and the demo account', () => {
  let db: Db;
  const lines: string[] = [];
  const out = (l: string) => lines.push(l);
  const run = (args: string, password?: string) =>
    runConsoleCommand(args.split(' '), db, out, password === undefined ? {} : { CONSOLE_NEW_PASSWORD: password }, async () => '');
  beforeAll(async () => {
    db = await openTestDb(MIGRATIONS);
  });
  afterAll(() => db.close());

  it('adds a support account by default and an admin with --role admin, with scrypt hashes', async () => {
    expect(await run('user add desk', 'a support password')).toBe(0);
    expect(await run('user add chief --role admin', 'an admin password')).toBe(0);
    const repo = consoleAccounts(db);
    const desk = await repo.getUser('desk');
    expect(desk).toMatchObject({ role: 'support', disabledAt: null });
    expect(desk!.passwordHash).toMatch(/^scrypt\$/);
    expect(await verifyPassword('a support password', desk!.passwordHash)).toBe(true);
    expect((await repo.getUser('chief'))!.role).toBe('admin');
  });

  it('refuses a short password, an unknown role, a taken name and a bad name with exit code 2, changing nothing', async () => {
    expect(await run('user add short', 'tiny')).toBe(2);
    expect(await run('user add boss --role owner', 'a long enough password')).toBe(2);
    expect(await run('user add desk', 'a long enough password')).toBe(2);
    expect(await run('user add bad/name', 'a long enough password')).toBe(2);
    const names = (await consoleAccounts(db).listUsers()).map((u) => u.username);
    expect(names).toEqual(['chief', 'desk']);
  });

  it('sets a new password, disables and enables, and never disables the last admin', async () => {
    expect(await run('user passwd desk', 'the new desk password')).toBe(0);
    expect(await verifyPassword('the new desk password', (await consoleAccounts(db).getUser('desk'))!.passwordHash)).toBe(true);
    expect(await run('user passwd nobody', 'the new desk password')).toBe(1);
    expect(await run('user disable desk')).toBe(0);
    expect((await consoleAccounts(db).getUser('desk'))!.disabledAt).not.toBeNull();
    expect(await run('user enable desk')).toBe(0);
    expect(await run('user disable chief')).toBe(2);
    lines.length = 0;
    expect(await run('user list')).toBe(0);
    expect(lines).toEqual(['chief\tadmin\tactive', 'desk\tsupport\tactive']);
    expect(await run('users')).toBe(2);
  });

  it('creates the demo admin once and shows its password only while it is current', async () => {
    const core = createConsoleCore({ db, clock: new ManualClock(T0), ids: randomIds, settings: adminSettings() });
    const first = await ensureConsoleDemoAccount(core);
    expect(first.username).toBe(DEMO_CONSOLE_USER);
    expect(first.password).toMatch(/^[\w-]{18}$/);
    expect((await core.accounts.getUser(DEMO_CONSOLE_USER))!.role).toBe('admin');
    expect(await ensureConsoleDemoAccount(core, { knownPassword: first.password! })).toEqual(first);
    await core.auth.setPassword(DEMO_CONSOLE_USER, 'changed by the admin');
    expect((await ensureConsoleDemoAccount(core, { knownPassword: first.password! })).password).toBeNull();
    expect((await ensureConsoleDemoAccount(core, { demoPassword: 'from the environment' })).password).toBe('from the environment');
  });
});
