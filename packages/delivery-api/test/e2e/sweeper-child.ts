/**
 * A hold sweeper in its own process, driven by its parent over IPC (test/e2e/sweepers.pg.test.ts): the delivery
 * services built as in production on the shared PostgreSQL (webhook outbox, loyalty over HTTP), but with a
 * ManualClock, because the sweeper's 2-, 30- and 60-minute rules must be passed without waiting.
 *
 * Environment: DATABASE_URL (PostgreSQL, already migrated by the parent), MASTER_KEY (hex, 32 bytes),
 * LOYALTY_URL and LOYALTY_API_LOGIN (the loyalty simulator the parent runs).
 * Messages in: `{ id, at }` — set the clock to the ISO instant `at`, run one sweep. Messages out: `{ id, report }`
 * with the sweep's {@link SweepReport}, or `{ id, error }` when the sweep threw. The process ends when the parent
 * disconnects.
 */
import { ManualClock, openDb, randomIds } from '@app/shared';
import { createServices } from '../../src/app.js';
import { SecretBox } from '../../src/auth/secret-box.js';
import { HttpLoyalty } from '../../src/loyalty/loyalty.http.js';
import { createOutboxOrderEvents } from '../../src/webhooks/outbox.js';

/** A command of the parent: run one sweep at instant `at` (ISO 8601). */
export interface SweepCommand {
  id: number;
  at: string;
}

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`sweeper child: ${name} is required`);
  return v;
};

const masterKey = Buffer.from(env('MASTER_KEY'), 'hex');
// no migrate(): the parent migrated the database; two children racing the migration lock would only add noise
const db = await openDb({ databaseUrl: env('DATABASE_URL'), poolSize: 4 });
const clock = new ManualClock(new Date());
const services = createServices({
  db,
  box: new SecretBox(masterKey),
  clock,
  ids: randomIds,
  requestIdTtlSeconds: 600,
  heartbeatWindowSeconds: 3600,
  masterKey,
  loyalty: new HttpLoyalty({ baseUrl: env('LOYALTY_URL'), apiLogin: env('LOYALTY_API_LOGIN'), timeoutMs: 5000 }),
  events: createOutboxOrderEvents(randomIds),
});

process.on('message', (m: SweepCommand) => {
  clock.set(m.at);
  services.sweeper.runOnce().then(
    (report) => process.send!({ id: m.id, report }),
    (err: Error) => process.send!({ id: m.id, error: err.stack ?? String(err) }),
  );
});
process.once('disconnect', () => {
  void db.close().finally(() => process.exit(0));
});
process.send!({ ready: true });
