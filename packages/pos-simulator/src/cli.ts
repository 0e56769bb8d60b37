/**
 * POS simulator from the command line:
 *   tsx packages/pos-simulator/src/cli.ts --base-url http://127.0.0.1:3000 --credentials data/demo-pos-credentials.json
 *     [--chain <chain.json>] [--seed <int>] [--once]
 * Pushes the chain's catalog for every terminal in the credentials file, then keeps heartbeats, stop-list
 * rotation, menu re-pushes and (at collecting points) the order round every 5 s going until Ctrl+C. `--once` syncs, prints the status and exits (1 if a push failed).
 * Log lines are JSON on stdout.
 */
import { parseArgs } from 'node:util';
import { DEMO_CHAIN_PATH, loadChain } from './chain.js';
import { loadCredentials } from './credentials.js';
import { pino } from 'pino';
import type { SimLogger } from './log.js';
import { startPosSimulator } from './simulator.js';
import { seededRandom } from './stop-list-rotation.js';

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    credentials: { type: 'string' },
    chain: { type: 'string', default: DEMO_CHAIN_PATH },
    seed: { type: 'string' },
    once: { type: 'boolean', default: false },
  },
});

// synchronous, so log lines and the final status line reach stdout in the order written
const log: SimLogger = pino({ base: { service: 'pos-simulator' } }, pino.destination({ dest: 1, sync: true }));

async function main(): Promise<number> {
  if (!values['base-url'] || !values.credentials) {
    process.stderr.write('usage: cli.ts --base-url <url> --credentials <json file> [--chain <file>] [--seed <int>] [--once]\n');
    return 2;
  }
  const chain = await loadChain(values.chain);
  const terminals = await loadCredentials(values.credentials);
  const random = values.seed === undefined ? undefined : seededRandom(Number(values.seed));
  const sim = await startPosSimulator({ baseUrl: values['base-url'], chain, terminals, random, log });
  if (values.once) {
    await sim.stop();
    const status = sim.status();
    process.stdout.write(`${JSON.stringify({ status })}\n`);
    return status.some((s) => s.pending.length > 0 || s.lastError) ? 1 : 0;
  }
  // The simulator's timers are unref'd; this one keeps the process up until a signal arrives.
  const keepAlive = setInterval(() => {}, 1 << 30);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  clearInterval(keepAlive);
  await sim.stop();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`pos-simulator: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
