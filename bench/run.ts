/**
 * Benchmark runner: `npm run bench -- <name>`; without a name lists them. Each script prints its own table.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const BENCHES: Record<string, string> = {
  read: 'delivery-read.ts',
  checkout: 'delivery-checkout.ts',
  webhooks: 'webhooks.ts',
  zones: 'zones.ts',
  recognition: 'recognition/run.ts',
  'recognition-load': 'recognition-load.ts',
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
const r = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', file, ...process.argv.slice(3)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
