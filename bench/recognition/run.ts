/**
 * Accuracy benchmark of the local OCR engine: `npx tsx bench/recognition/run.ts [--per-tier 60]
 * [--tiers scan,photo,screenshot,photo-table] [--from 0] [--cases latin,word-dates,multipage,pdf-text,pdf-scan]
 * [--langs rus] [--no-real] [--dump fields.jsonl]` (`--tiers none` runs only the cases; `--langs rus+eng` sets Tesseract's languages,
 * default the engine's `rus`; `--from N` starts at the N-th document of each set). Generates a fixed set (seeds
 * 10000 + i for scan, 11000 + i photo, 12000 + i screenshot, 13000 + i photo-table, whatever the order given; types cycling UPD / TORG-12 / invoice, 1–25 lines,
 * long ones over two sheets) with docgen, recognises each with `createLocalOcrEngine()` (concurrency = cores) and
 * prints per tier: header key-field accuracy, line-cell accuracy, fully-correct documents, seconds per page
 * p50/p95, and the error rate among fields with confidence ≥ 0.9, with a per-field failure breakdown (item cells
 * grouped by column) on stderr; `--dump` appends every scored field (set, seed, path, ok, confidence) as JSON lines. Then runs the real 1C TORG-12 PDFs from
 * shared/data (pdftoppm -r 300) when available. Results: docs/recognition-engine.md.
 */
import { appendFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { closeRenderer, generateDocument, type DocType, type Tier } from '@app/docgen';
import { CASES, tierSet, type BenchSet } from './cases.js';
import { createLocalOcrEngine, type ImageQuality } from '@app/recognition-api';
import { runRealSamples } from './real-samples.js';
import { failureBreakdown, percentile, scoreDocument, type FieldScore } from './score.js';

const { values } = parseArgs({
  options: {
    'per-tier': { type: 'string', default: '60' },
    from: { type: 'string', default: '0' },
    tiers: { type: 'string', default: 'scan,photo,screenshot' },
    'no-real': { type: 'boolean', default: false },
    cases: { type: 'string', default: '' },
    langs: { type: 'string' },
    dump: { type: 'string' },
  },
});
const perTier = Number(values['per-tier']);
/** `--from N` starts at the N-th document of each set (a further sample without repeating the first). */
const from = Number(values.from);
/** Fixed seed base per tier (10000 + 1000 × index), so a tier's documents do not depend on which other tiers run. */
const ALL_TIERS: Tier[] = ['scan', 'photo', 'screenshot', 'photo-table', 'photo-phone'];
/** The API's image_quality for each tier: a sheet photographed on a table is sent as `photo`. */
const QUALITY: Record<Tier, ImageQuality> = {
  scan: 'scan',
  photo: 'photo',
  screenshot: 'screenshot',
  'photo-table': 'photo',
  'photo-phone': 'photo',
};
const tiers = values.tiers === 'none' ? [] : (values.tiers!.split(',') as Tier[]);
const sets: BenchSet[] = [
  ...tiers.map((t) => tierSet(t, ALL_TIERS.indexOf(t))),
  ...values
    .cases!.split(',')
    .filter(Boolean)
    .map((name) => {
      if (!CASES[name]) throw new Error(`unknown case ${name}; known: ${Object.keys(CASES).join(', ')}`);
      return { name, ...CASES[name] };
    }),
];
const types: DocType[] = ['upd', 'torg12', 'invoice'];
const engine = createLocalOcrEngine({ languages: values.langs });
const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)} %`);

const rows: string[] = [];
try {
  for (const set of sets) {
    const { tier } = set;
    const scores: FieldScore[] = [];
    const perPage: number[] = [];
    let full = 0;
    let typeOk = 0;
    for (let i = 0; i < perTier; i++) {
      const seed = set.seedBase + from + i;
      const type = types[(from + i) % 3];
      const doc = await generateDocument({ seed, type, tier, ...set.options(from + i) });
      const t0 = performance.now();
      const out = await engine
        .recognizeDetailed({ images: doc.images, documentType: 'auto', imageQuality: QUALITY[tier] })
        .catch((err: Error) => ({ failed: err.message }));
      if ('failed' in out) {
        // A set the engine cannot read at all (e.g. PDFs before PDF support) scores every field wrong.
        scores.push(
          ...scoreDocument(
            {
              document: { number: null, date: null },
              seller: { name: null, inn: null, kpp: null },
              buyer: { name: null, inn: null, kpp: null },
              items: [],
              totals: { amount_without_nds: null, nds_amount: null, amount_with_nds: null },
            },
            doc.truth,
            {},
          ),
        );
        process.stderr.write(`${set.name} ${i + 1}/${perTier} ${type} seed ${seed} failed: ${out.failed}\n`);
        continue;
      }
      perPage.push((performance.now() - t0) / 1000 / doc.pages);
      const s = scoreDocument(out.data, doc.truth, out.fieldConfidence);
      scores.push(...s);
      // One JSON line per scored field, for offline calibration of the confidences (`--dump file.jsonl`).
      if (values.dump) appendFileSync(values.dump, s.map((f) => `${JSON.stringify({ set: set.name, seed, type, ...f })}\n`).join(''));
      const allOk = s.every((f) => f.ok || f.kind === 'address') && out.data.items.length === doc.truth.items.length;
      if (allOk) full++;
      if (out.documentType === type) typeOk++;
      const wrong = s.filter((f) => !f.ok).map((f) => f.path);
      const bad = wrong.length;
      process.stderr.write(
        `${set.name} ${i + 1}/${perTier} ${type} seed ${seed} pages ${doc.pages} lines ${doc.truth.items.length} ` +
          `${perPage[perPage.length - 1].toFixed(1)} s/page wrong ${bad}${allOk ? ' ✓' : ''} ${wrong.join(' ')}\n`,
      );
    }
    process.stderr.write(`${set.name}: failures by field (wrong / scored, wrong at confidence ≥ 0.9) ${failureBreakdown(scores)}\n`);
    const h = scores.filter((f) => f.kind === 'header');
    const c = scores.filter((f) => f.kind === 'cell');
    const a = scores.filter((f) => f.kind === 'address');
    const sure = scores.filter((f) => f.kind !== 'address' && f.conf >= 0.9);
    rows.push(
      `| ${set.name} | ${perTier} | ${pct(h.filter((f) => f.ok).length, h.length)} | ${pct(c.filter((f) => f.ok).length, c.length)} | ` +
        `${pct(full, perTier)} | ${pct(typeOk, perTier)} | ${pct(a.filter((f) => f.ok).length, a.length)} | ${percentile(perPage, 50).toFixed(1)} / ${percentile(perPage, 95).toFixed(1)} | ` +
        `${pct(sure.filter((f) => !f.ok).length, sure.length)} (${sure.length} fields) |`,
    );
  }
} finally {
  await closeRenderer();
}
console.log(
  '| tier / case | docs | header key fields | line cells | docs fully correct | type (auto) | addresses | s/page p50 / p95 | error rate at confidence ≥ 0.9 |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
if (!values['no-real']) await runRealSamples(engine);
