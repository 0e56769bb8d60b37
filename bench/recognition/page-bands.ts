/**
 * Seconds per page with a scan's page read in two bands side by side (page-bands.ts) against the same engine reading
 * each page whole, measured in the same run: each document of the development set
 * (`../shared/data/recognition-dev/`) is recognised by both engines in turn, the order swapped every round, so a busy
 * moment of the machine falls on both. Prints p50 / p95 seconds per page per tier and their ratio, the fields the set's
 * scorer finds wrong with each, and the load average at start and end.
 * `npx tsx --conditions=source bench/recognition/page-bands.ts [--tier clean|scan|photo|all] [--rounds N]`
 * (default all tiers, 2 rounds). Not a test.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createLocalOcrEngine } from '../../packages/recognition-api/src/engine/ocr/index.js';
import { compareDocument, devDocuments, loadDocument, pct, wrongFields } from './dev-docs.js';

const { values } = parseArgs({ options: { tier: { type: 'string', default: 'all' }, rounds: { type: 'string', default: '2' } } });
const tiers = values.tier === 'all' ? ['clean', 'scan', 'photo'] : [values.tier!];
const rounds = Number(values.rounds);
const engines = { whole: createLocalOcrEngine({ concurrency: 2, pageBands: false }), bands: createLocalOcrEngine({ concurrency: 2 }) };
type Mode = keyof typeof engines;

console.log(
  `load average at start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const rows: string[] = [];
for (const tier of tiers) {
  const perPage: Record<Mode, number[]> = { whole: [], bands: [] };
  const wrong: Record<Mode, number> = { whole: 0, bands: 0 };
  for (let round = 0; round < rounds; round++) {
    for (const [i, d] of devDocuments.entries()) {
      const doc = loadDocument(d, tier);
      const order: Mode[] = (i + round) % 2 === 0 ? ['whole', 'bands'] : ['bands', 'whole'];
      for (const mode of order) {
        const t0 = performance.now();
        const out = await engines[mode].recognize({ images: doc.images, documentType: doc.documentType as 'upd', imageQuality: doc.imageQuality });
        perPage[mode].push((performance.now() - t0) / 1000 / doc.images.length);
        if (round === 0) wrong[mode] += wrongFields(compareDocument(doc.truth, out.data, doc.unscored));
      }
    }
  }
  const cell = (m: Mode) => `${pct(perPage[m], 50).toFixed(2)} / ${pct(perPage[m], 95).toFixed(2)}`;
  const ratio = (p: number) => (pct(perPage.bands, p) / pct(perPage.whole, p)).toFixed(2);
  rows.push(
    `| ${tier} | ${perPage.whole.length} | ${cell('whole')} | ${cell('bands')} | ${ratio(50)} / ${ratio(95)} | ${wrong.whole} | ${wrong.bands} |`,
  );
  console.error(`${tier} done`);
}
console.log('| tier | documents × rounds | whole p50 / p95 s | bands p50 / p95 s | ratio p50 / p95 | fields wrong, whole | fields wrong, bands |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log(
  `load average at end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
