/**
 * Reliability of the confidence the service returns, from a development-set scorer report
 * (`npm run bench -- recognition-dev --out file.json`, or `score.mjs` with OUT_JSON).
 * `npx tsx bench/recognition/reliability.ts file.json [more.json …]`. Not a test.
 *
 * The scorer records, per document, the document `confidence` (Spec: Validation and confidence) and whether each
 * compared field was right; it has no per-field confidence, and the service does not return one (the engine's
 * field confidences stay inside the engine). So this is the document-level table a client can act on: per tier,
 * document confidence bucket → share of that bucket's compared fields that were right, the wrong-field rate at
 * confidence ≥ 0.9 (the scorer's figure), and how many documents with any wrong field had
 * confidence < 0.80. That is a lower bound of the service's `manual_check_recommended`, which is also set by a
 * warning asking to check a value against the page (engine/confidence/confidence.ts): the scorer keeps only the
 * warning count, not the texts. Fields: header key fields and line cells as the scorer compares
 * them; `--no-names` leaves item names out (their own confidence is a separate piece of work).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface Field {
  ok: boolean;
  field?: string;
}
interface Result {
  id: string;
  tier: string;
  confidence: number | null;
  status: string;
  comparison: { header: Record<string, Field>; cells: Field[]; itemCount: { ok: boolean } };
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'no-names': { type: 'boolean', default: false } } });
if (positionals.length === 0) {
  console.error('usage: reliability.ts scorer-out.json [more.json …] [--no-names]');
  process.exit(2);
}
const MANUAL_CHECK_BELOW = 0.8;
const BUCKETS: [number, number][] = [
  [0, 0.5],
  [0.5, 0.8],
  [0.8, 0.9],
  [0.9, 0.95],
  [0.95, 1.01],
];

const results: Result[] = positionals.flatMap((f) => JSON.parse(readFileSync(f, 'utf8')).results as Result[]);
const fieldsOf = (r: Result): Field[] =>
  [...Object.values(r.comparison.header), ...r.comparison.cells].filter((c) => !(values['no-names'] && c.field === 'name'));
const pct = (a: number, b: number) => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)} %`);

for (const tier of [...new Set(results.map((r) => r.tier))]) {
  const rs = results.filter((r) => r.tier === tier);
  console.log(`\n## ${tier} (${rs.length} documents${values['no-names'] ? ', item names left out' : ''})`);
  console.log('| document confidence | documents | fields | right | documents with any wrong field |');
  console.log('|---|---|---|---|---|');
  for (const [lo, hi] of BUCKETS) {
    const inB = rs.filter((r) => (r.confidence ?? 0) >= lo && (r.confidence ?? 0) < hi);
    const fs = inB.flatMap(fieldsOf);
    const wrongDocs = inB.filter((r) => fieldsOf(r).some((f) => !f.ok) || !r.comparison.itemCount.ok).length;
    console.log(
      `| ${lo.toFixed(2)}–${Math.min(hi, 1).toFixed(2)} | ${inB.length} | ${fs.length} | ${pct(fs.filter((f) => f.ok).length, fs.length)} | ${wrongDocs} |`,
    );
  }
  const hi = rs.filter((r) => (r.confidence ?? 0) >= 0.9).flatMap(fieldsOf);
  const bad = rs.filter((r) => fieldsOf(r).some((f) => !f.ok) || !r.comparison.itemCount.ok);
  const caught = bad.filter((r) => (r.confidence ?? 0) < MANUAL_CHECK_BELOW);
  const flagged = rs.filter((r) => (r.confidence ?? 0) < MANUAL_CHECK_BELOW);
  console.log(`wrong among fields of documents at confidence ≥ 0.9: ${pct(hi.filter((f) => !f.ok).length, hi.length)} of ${hi.length}`);
  console.log(
    `confidence < 0.80 on documents with any wrong field: ${caught.length}/${bad.length} (${pct(caught.length, bad.length)}); ` +
      `flagged documents that were fully right: ${flagged.length - flagged.filter((r) => bad.includes(r)).length}/${flagged.length}`,
  );
}
