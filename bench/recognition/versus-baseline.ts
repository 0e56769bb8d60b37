/**
 * Seconds per page of the engine in this checkout against the engine of another checkout (`--baseline DIR`, e.g. a
 * `git worktree` of the commit the "before" was measured on), measured in the same run: each engine lives in
 * a process of its own (engine-child.ts, set up as the service's high lane), and each document of the development set
 * (`../shared/data/recognition-dev/`) is recognised by both in turn, the order swapped from one document to the next
 * and every round, so a busy moment of the machine falls on both. Prints per tier p50 / mean seconds per page of
 * each, their ratio (this checkout / baseline), the fields the set's scorer finds wrong with each (first round) and
 * the load average at start and end.
 * `npx tsx --conditions=source bench/recognition/versus-baseline.ts --baseline DIR [--tier clean|scan|photo|all] [--rounds N]`
 * (default all tiers, 1 round). The baseline checkout needs no install of its own when its `node_modules` is a link
 * to this checkout's and its dependencies are the same. Not a test.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { compareDocument, devDocuments, loadDocument, pct, wrongFields } from './dev-docs.js';

const { values } = parseArgs({
  options: { baseline: { type: 'string' }, tier: { type: 'string', default: 'all' }, rounds: { type: 'string', default: '1' } },
});
if (!values.baseline) throw new Error('--baseline DIR: a checkout of the baseline commit');
const tiers = values.tier === 'all' ? ['clean', 'scan', 'photo'] : [values.tier!];
const rounds = Number(values.rounds);
const engineModule = (root: string) => join(resolve(root), 'packages/recognition-api/src/engine/ocr/index.ts');

/** A child process holding one engine; `recognize` sends it a document and waits for its answer. */
function startEngine(root: string) {
  const child: ChildProcess = fork(join(import.meta.dirname, 'engine-child.ts'), [engineModule(root)], {
    execArgv: ['--import', 'tsx', '--conditions=source'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<{ seconds: number; data: unknown; error?: string; ready?: boolean }>((ok, fail) => {
      const died = (code: number | null) => fail(new Error(`engine of ${root} exited with ${code}`));
      child.once('exit', died);
      child.once('message', (m) => {
        child.off('exit', died);
        ok(m as never);
      });
    });
  const ready = next();
  return {
    ready,
    recognize(images: Buffer[], documentType: string, imageQuality: 'scan' | 'photo') {
      const answer = next();
      child.send({ images: images.map((b) => b.toString('base64')), documentType, imageQuality });
      return answer;
    },
    stop: () => child.kill(),
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const engines = { current: startEngine(join(import.meta.dirname, '../..')), baseline: startEngine(values.baseline) };
type Side = keyof typeof engines;
await Promise.all([engines.current.ready, engines.baseline.ready]);
console.log(`load average at start: ${load()}`);
const rows: string[] = [];
try {
  for (const tier of tiers) {
    const perPage: Record<Side, number[]> = { current: [], baseline: [] };
    const wrong: Record<Side, number> = { current: 0, baseline: 0 };
    const failed: Record<Side, number> = { current: 0, baseline: 0 };
    for (let round = 0; round < rounds; round++) {
      for (const [i, d] of devDocuments.entries()) {
        const doc = loadDocument(d, tier);
        const order: Side[] = (i + round) % 2 === 0 ? ['baseline', 'current'] : ['current', 'baseline'];
        for (const side of order) {
          const out = await engines[side].recognize(doc.images, doc.documentType, doc.imageQuality);
          perPage[side].push(out.seconds / doc.images.length);
          if (out.error) failed[side]++;
          if (round === 0) wrong[side] += wrongFields(compareDocument(doc.truth, out.data, doc.unscored));
        }
      }
    }
    const cell = (s: Side) => `${pct(perPage[s], 50).toFixed(2)} / ${mean(perPage[s]).toFixed(2)}`;
    const ratio = `${(pct(perPage.current, 50) / pct(perPage.baseline, 50)).toFixed(2)} / ${(mean(perPage.current) / mean(perPage.baseline)).toFixed(2)}`;
    rows.push(
      `| ${tier} | ${perPage.current.length} | ${cell('baseline')} | ${cell('current')} | ${ratio} | ${wrong.baseline} | ${wrong.current} | ${failed.baseline} / ${failed.current} |`,
    );
    console.error(`${tier} done (load ${load()})`);
  }
} finally {
  engines.current.stop();
  engines.baseline.stop();
}
console.log(
  '| tier | documents × rounds | baseline p50 / mean s | current p50 / mean s | ratio p50 / mean | fields wrong, baseline | fields wrong, current | failed, baseline / current |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log(`load average at end: ${load()}`);
