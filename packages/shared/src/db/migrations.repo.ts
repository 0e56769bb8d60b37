import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from './db-port.js';

/**
 * Applies the `*.sql` files of `dir` in name order, each once, recorded in `schema_migrations`.
 * An advisory lock keeps two instances starting together from applying the same file twice.
 */
export async function migrate(db: Db, dir: string): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const applied: string[] = [];
  await db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock(7242001)');
    await q.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await q.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
    for (const f of files) {
      if (done.has(f)) continue;
      const sql = await readFile(join(dir, f), 'utf8');
      await q.exec(sql); // the whole file as one script: PostgreSQL parses it (dollar quotes, semicolons in bodies)
      await q.query('INSERT INTO schema_migrations (name) VALUES ($1)', [f]);
      applied.push(f);
    }
  });
  return applied;
}
