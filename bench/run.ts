/**
 * Benchmark runner: `npm run bench -- <name>`; without a name lists them. Each script prints its own table.
 * `http` is the Delivery Partner API over HTTP (bench/http/run.ts: production server, separate-process load
 * generator and bare baseline, load-average guard); there is no in-process HTTP benchmark.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const BENCHES: Record<string, string> = {
  http: 'http/run.ts',
  webhooks: 'webhooks.ts',
  zones: 'zones.ts',
  recognition: 'recognition/run.ts',
  'recognition-load': 'recognition-load.ts',
  'recognition-dev': 'recognition/dev-set.ts',
  'recognition-soak': 'recognition-soak.ts',
};

const name = process.argv[2];
if (!name || !BENCHES[name]) {
  console.log(`usage: npm run bench -- <${Object.keys(BENCHES).join('|')}> [args]`);
  process.exit(name ? 2 : 0);
}
const file = join(import.meta.dirname, BENCHES[name]);
if (!existsSync(file)) {
  console.error(`${file} is missing`);
  process.exit(2);
}
// The benchmarks print the command with each table, so a pasted table says how it was made.
const env = { ...process.env, BENCH_COMMAND: ['npm run bench --', ...process.argv.slice(2)].join(' ') };
const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', file, ...process.argv.slice(3)], { stdio: 'inherit', env });
// Forwarded so the benchmark stops its own servers and drops its database instead of being orphaned.
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
child.once('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
