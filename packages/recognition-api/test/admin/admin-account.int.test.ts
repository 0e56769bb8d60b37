import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, type Db } from '@app/shared';
import { openTestDb } from '@app/shared/testing';
import { ensureAdminAccount } from '../../src/admin-web/admin-account.js';
import { runAdminCli } from '../../src/admin-web/admin-cli.js';
import { runRecognitionAdmin } from '../../src/cli/recognition-admin.js';
import { adminAccounts } from '../../src/admin-web/admin-store.js';
import { type AdminAccountsRepo, hashPassword, parsePasswordHash, verifyPassword } from '@app/admin-web';
import { loadSessionKey, sessionKeyFile } from '../../src/admin-web/session-key.js';
import { ConfigError, loadAdminConfig } from '../../src/config.js';
import { MIGRATIONS_DIR } from '../../src/db.js';

let db: Db;
let repo: AdminAccountsRepo;
const clock = new ManualClock('2026-11-23T09:00:00Z');
beforeAll(async () => {
  db = await openTestDb(MIGRATIONS_DIR);
  repo = adminAccounts(db);
});
afterAll(() => db.close());

describe('password hashing (scrypt)', () => {
  it('verifies the right password only; salts differ; malformed hashes never verify', async () => {
    const a = await hashPassword('пароль администратора');
    const b = await hashPassword('пароль администратора');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('пароль администратора', a)).toBe(true);
    expect(await verifyPassword('пароль администратора ', a)).toBe(false);
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(parsePasswordHash('scrypt$3$8$1$AAAA$AAAA')).toBeNull(); // N not a power of two
    expect(parsePasswordHash('scrypt$2097152$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=')).toBeNull(); // N too large
  });
});

describe('the administrator account at start-up', () => {
  it('creates the demo account once with a generated password, then shows it only while it is current', async () => {
    const first = await ensureAdminAccount(repo, clock, { username: 'demo1' });
    expect(first.password).toMatch(/^[A-Za-z0-9_-]{18}$/);
    const again = await ensureAdminAccount(repo, clock, { username: 'demo1', knownPassword: first.password! });
    expect(again.password).toBe(first.password);
    const stale = await ensureAdminAccount(repo, clock, { username: 'demo1', knownPassword: 'changed-since' });
    expect(stale.password).toBeNull();
  });

  it('DEMO_ADMIN_PASSWORD creates or replaces the password', async () => {
    expect((await ensureAdminAccount(repo, clock, { username: 'demo2', demoPassword: 'first demo password' })).password).toBe('first demo password');
    await ensureAdminAccount(repo, clock, { username: 'demo2', demoPassword: 'second demo password' });
    expect(await verifyPassword('second demo password', (await repo.getUser('demo2'))!.passwordHash)).toBe(true);
  });

  it('ADMIN_PASSWORD_HASH sets the hash and no password is known; a malformed one is refused', async () => {
    const hash = await hashPassword('production password');
    const res = await ensureAdminAccount(repo, clock, { username: 'prod', passwordHash: hash });
    expect(res.password).toBeNull();
    expect((await repo.getUser('prod'))!.passwordHash).toBe(hash);
    await expect(ensureAdminAccount(repo, clock, { username: 'prod', passwordHash: 'md5$abc' })).rejects.toThrow(/ADMIN_PASSWORD_HASH/);
  });
});

describe('admin configuration and CLI', () => {
  it('parses ADMIN_* with defaults and names a bad variable', () => {
    const c = loadAdminConfig({});
    expect(c).toMatchObject({ username: 'admin', cookieSecure: 'auto', idleMinutes: 30, maxHours: 12, loginMaxAttempts: 10, loginWindowMinutes: 15 });
    expect(loadAdminConfig({ ADMIN_COOKIE_SECURE: '1' }).cookieSecure).toBe(true);
    expect(() => loadAdminConfig({ ADMIN_SESSION_KEY: 'c2hvcnQ=' })).toThrow(ConfigError);
    expect(() => loadAdminConfig({ ADMIN_PASSWORD_HASH: 'plain' })).toThrow(/ADMIN_PASSWORD_HASH/);
    expect(() => loadAdminConfig({ ADMIN_COOKIE_SECURE: 'maybe' })).toThrow(/ADMIN_COOKIE_SECURE/);
    expect(() => loadAdminConfig({ ADMIN_SESSION_IDLE_MINUTES: '0' })).toThrow(/ADMIN_SESSION_IDLE_MINUTES/);
  });

  it('admin-cli hash prints a hash that verifies; a short password is refused', async () => {
    const lines: string[] = [];
    expect(await runAdminCli(['hash'], (l) => lines.push(l), { ADMIN_NEW_PASSWORD: 'a long enough password' })).toBe(0);
    expect(await verifyPassword('a long enough password', lines[0]!)).toBe(true);
    expect(() => loadAdminConfig({ ADMIN_PASSWORD_HASH: lines[0]! })).not.toThrow();
    const err: string[] = [];
    expect(await runAdminCli(['hash'], (l) => err.push(l), { ADMIN_NEW_PASSWORD: 'short' })).toBe(2);
    expect(err[0]).toContain('не короче 12 символов');
    expect(await runAdminCli(['nope'], () => {}, {})).toBe(2);
  });

  it('admin-cli set-password writes the account in the service database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'admin-cli-'));
    try {
      const out: string[] = [];
      expect(
        await runAdminCli(['set-password', '--username', 'ops'], (l) => out.push(l), { DATA_DIR: dir, ADMIN_NEW_PASSWORD: 'operations password' }),
      ).toBe(0);
      expect(out[0]).toContain('password of ops set');
      const { openRecognitionDb } = await import('../../src/db.js');
      const cliDb = await openRecognitionDb({ dataDir: dir });
      try {
        expect(await verifyPassword('operations password', (await adminAccounts(cliDb).getUser('ops'))!.passwordHash)).toBe(true);
      } finally {
        await cliDb.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('recognition-admin dispatches keys|edo|admin; admin create-user, disable and list manage accounts', async () => {
    const out: string[] = [];
    expect(await runRecognitionAdmin(['--help'], (l) => out.push(l))).toBe(0);
    expect(out.join('\n')).toContain('keys|edo|admin');
    expect(await runRecognitionAdmin(['nope'], () => {})).toBe(2);
    expect(await runRecognitionAdmin(['keys'], () => {})).toBe(2);
    const dir = mkdtempSync(join(tmpdir(), 'recognition-admin-'));
    try {
      const env = { DATA_DIR: dir, ADMIN_NEW_PASSWORD: 'operations password' };
      const lines: string[] = [];
      const run = (...argv: string[]) => runRecognitionAdmin(argv, (l) => lines.push(l), env);
      expect(await run('admin', 'create-user', 'reader')).toBe(0);
      expect(await run('admin', 'disable', 'reader')).toBe(0);
      lines.length = 0;
      expect(await run('admin', 'list')).toBe(0);
      expect(lines).toEqual([expect.stringMatching(/^reader\tviewer\tdisabled /)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('generates the session key once into the data folder (0600) and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admin-key-'));
    try {
      const k1 = loadSessionKey(undefined, dir);
      expect(k1.length).toBe(32);
      expect(statSync(sessionKeyFile(dir)).mode & 0o777).toBe(0o600);
      expect(loadSessionKey(undefined, dir).equals(k1)).toBe(true);
      expect(readFileSync(sessionKeyFile(dir), 'utf8').trim()).toBe(k1.toString('base64'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
