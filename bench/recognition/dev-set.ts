/**
 * The independent development set (`../shared/data/recognition-dev/`): starts the real recognition service
 * in this process (PGlite in a temp folder, real worker pools and Tesseract, no callbacks) and runs the set's own scorer
 * (`score.mjs`, unchanged) against it, so the numbers are the scorer's, not ours.
 * `npm run bench -- recognition-dev [--tier clean|scan|photo|all] [--only id,id] [--limit N] [--out file.json]`;
 * `RECOGNITION_DEV_SET` points at another set folder of the same kind (the scorer's `SET_DIR`).
 * Prints the scorer's report and the load average at start and end. Not a test.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startRecognitionService } from '@app/recognition-api';

const { values } = parseArgs({
  options: {
    tier: { type: 'string', default: 'all' },
    only: { type: 'string' },
    limit: { type: 'string' },
    out: { type: 'string' },
    workers: { type: 'string', default: '2' },
  },
});
const devDir = resolve(process.env.RECOGNITION_DEV_SET ?? join(import.meta.dirname, '../../../shared/data/recognition-dev'));
const scorer = join(devDir, 'score.mjs');
if (!existsSync(scorer)) {
  console.error(`no scorer at ${scorer}: set RECOGNITION_DEV_SET to the folder holding score.mjs and set/`);
  process.exit(2);
}
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const loadStart = load();
const dir = mkdtempSync(join(tmpdir(), 'recog-dev-'));
const svc = await startRecognitionService({
  dataDir: dir,
  port: 0,
  host: '127.0.0.1',
  workers: Number(values.workers),
  highSlots: 2,
  demoApiKey: true,
  pollMs: 200,
});
const env: NodeJS.ProcessEnv = {
  ...process.env,
  RECOGNITION_URL: svc.url.replace(/\/api\/v1\/?$/, ''),
  RECOGNITION_API_KEY: svc.apiKey!,
  SET_DIR: join(devDir, 'set'),
  TIER: values.tier,
};
if (values.only) env.ONLY = values.only;
if (values.limit) env.LIMIT = values.limit;
if (values.out) env.OUT_JSON = resolve(values.out);
console.log(`command: ${process.env.BENCH_COMMAND ?? 'bench/recognition/dev-set.ts'}; load average at start ${loadStart}`);
const code = await new Promise<number>((done) => {
  const child = spawn(process.execPath, [scorer], { env, stdio: 'inherit' });
  child.once('exit', (c) => done(c ?? 1));
});
console.log(`load average at end ${load()}`);
await svc.close();
rmSync(dir, { recursive: true, force: true });
process.exit(code);
