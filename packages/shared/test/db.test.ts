import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { isUniqueViolation, migrate, type Db } from '../src/index.js';
import { openTestDb } from '../src/testing.js';

const dir = fileURLToPath(new URL('./fixtures/migrations', import.meta.url));
let db: Db;
afterEach(async () => db?.close());

describe('db port', () => {
  it('migrates once and runs queries', async () => {
    db = await openTestDb(dir);
    expect(await migrate(db, dir)).toEqual([]);
    await db.query('INSERT INTO t (id, v) VALUES ($1, $2)', [1, 'a']);
    expect(await db.query('SELECT id, v FROM t')).toEqual([{ id: 1, v: 'a' }]);
    await db.ping();
  });

  it('runs a migration file as one script (a function body with semicolons at line ends)', async () => {
    db = await openTestDb(dir);
    await db.query("INSERT INTO t (id, v) VALUES (1, 'a'), (2, 'b')");
    expect(await db.query('SELECT t_count() AS n')).toEqual([{ n: 2 }]);
  });

  it('rolls a transaction back when it throws', async () => {
    db = await openTestDb(dir);
    await expect(
      db.tx(async (q) => {
        await q.query('INSERT INTO t (id, v) VALUES (2, $1)', ['b']);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db.query('SELECT * FROM t')).toEqual([]);
  });

  it('reports unique violations by SQLSTATE', async () => {
    db = await openTestDb(dir);
    await db.query('INSERT INTO t (id, v) VALUES (1, $1)', ['a']);
    const err = await db.query('INSERT INTO t (id, v) VALUES (1, $1)', ['a']).catch((e) => e);
    expect(isUniqueViolation(err)).toBe(true);
  });
});
