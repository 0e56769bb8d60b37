import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '@app/shared';
import { openTestDb } from '@app/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminAccountsRepo, sqlIdent } from '../src/accounts.repo.js';
import { AdminAuditRepo } from '../src/audit.repo.js';

// Two panels' tables in one database, as each service's migration makes them (same columns, different names).
const dir = mkdtempSync(join(tmpdir(), 'admin-web-store-'));
const tables = (p: string) => `
  CREATE TABLE ${p}_users (username text PRIMARY KEY, password_hash text NOT NULL, role text NOT NULL,
    disabled_at timestamptz, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL);
  CREATE TABLE ${p}_sessions (id text PRIMARY KEY, username text NOT NULL REFERENCES ${p}_users(username),
    created_at timestamptz NOT NULL, last_seen_at timestamptz NOT NULL);
  CREATE TABLE ${p}_audit (id text PRIMARY KEY, at timestamptz NOT NULL, username text NOT NULL, ip text NOT NULL,
    action text NOT NULL, target text NOT NULL, detail text NOT NULL);`;
writeFileSync(join(dir, '001_panels.sql'), tables('one') + tables('two'));

const T = new Date('2026-11-28T10:00:00Z');
let db: Db;
beforeAll(async () => {
  db = await openTestDb(dir);
});
afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the shared panel store', () => {
  it('keeps each service on its own tables with its own default role', async () => {
    const one = new AdminAccountsRepo(db, { users: 'one_users', sessions: 'one_sessions', defaultRole: 'admin' });
    const two = new AdminAccountsRepo(db, { users: 'two_users', sessions: 'two_sessions', defaultRole: 'support' });
    await one.upsertUser('ann', 'hash-1', T);
    await two.upsertUser('bob', 'hash-2', T);
    expect((await one.listUsers()).map((u) => [u.username, u.role])).toEqual([['ann', 'admin']]);
    expect((await two.listUsers()).map((u) => [u.username, u.role])).toEqual([['bob', 'support']]);
    await two.insertSession({ id: 's1', username: 'bob', createdAt: T, lastSeenAt: T });
    expect(await one.getSession('s1')).toBeNull();
    expect(await two.getSession('s1')).toMatchObject({ username: 'bob', role: 'support', disabled: false });
    // A new password ends that account's sessions.
    await two.upsertUser('bob', 'hash-3', T);
    expect(await two.getSession('s1')).toBeNull();
  });

  it('filters the audit log by target and caps the limit', async () => {
    const audit = new AdminAuditRepo(db, 'one_audit');
    for (const [i, target] of ['order-1', 'order-2', 'order-1'].entries())
      await audit.insert({ id: `a${i}`, at: new Date(T.getTime() + i * 1000), username: 'ann', ip: '::1', action: 'x', target, detail: '' });
    expect((await audit.latest(10, 'order-1')).map((e) => e.id)).toEqual(['a2', 'a0']);
    expect((await audit.latest(0)).map((e) => e.id)).toEqual(['a2']);
    expect(await new AdminAuditRepo(db, 'two_audit').latest(10)).toEqual([]);
  });

  it('takes only plain identifiers as table names', () => {
    expect(sqlIdent('console_users')).toBe('console_users');
    expect(() => sqlIdent('users; DROP TABLE x')).toThrow(/not a plain SQL identifier/);
    expect(() => new AdminAuditRepo(db, 'Audit')).toThrow(/not a plain SQL identifier/);
  });
});
