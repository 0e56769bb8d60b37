/**
 * Field-level view of the development set (`../shared/data/recognition-dev/`): runs the local engine in this
 * process (no service, no database) over a tier's pages, validates and scores each answer the way the service does
 * (`validateRecognizedData`, `computeConfidence`, `manualCheckRecommended`) and compares it with the set's own
 * `compareDocument` (score.mjs, unchanged). Where `recognition-dev` reports what a client sees, this reports what
 * the engine knew: each compared field's own confidence, so wrong fields can be grouped by kind and by confidence.
 * `npx tsx --conditions=source bench/recognition/dev-fields.ts [--tier clean|scan|photo] [--only id,id] [--wrong]`
 * (`--wrong` lists every wrong field with its truth, reading and field confidence). Not a test.
 */
import { parseArgs } from 'node:util';
import { computeConfidence, manualCheckRecommended } from '../../packages/recognition-api/src/engine/confidence/confidence.js';
import { createLocalOcrEngine } from '../../packages/recognition-api/src/engine/ocr/index.js';
import { validateRecognizedData } from '../../packages/recognition-api/src/engine/validate/validate.js';
import { compareDocument, devDocuments, loadDocument } from './dev-docs.js';

const { values } = parseArgs({
  options: { tier: { type: 'string', default: 'clean' }, only: { type: 'string' }, wrong: { type: 'boolean', default: false } },
});
const only = values.only ? new Set(values.only.split(',')) : null;
const engine = createLocalOcrEngine({ concurrency: 2 });
const tier = values.tier!;

interface Row {
  doc: string;
  path: string;
  kind: string;
  ok: boolean;
  conf: number;
  truth: unknown;
  pred: unknown;
}
const rows: Row[] = [];
const docs: { id: string; confidence: number; manual: boolean; wrong: number; fields: number }[] = [];
for (const d of devDocuments) {
  if (only && !only.has(d.id)) continue;
  const doc = loadDocument(d, tier);
  const out = await engine.recognizeDetailed({ images: doc.images, documentType: doc.documentType as 'upd', imageQuality: doc.imageQuality });
  const v = validateRecognizedData(out.data);
  const warnings = [...out.warnings, ...v.warnings];
  const confidence = computeConfidence({ warnings: warnings.length, emptyCritical: v.emptyCritical.length, totalsMismatch: v.totalsMismatch });
  const cmp = compareDocument(doc.truth, out.data, doc.unscored);
  const mine: Row[] = [];
  for (const [path, c] of Object.entries(cmp.header))
    mine.push({ doc: d.id, path, kind: path, ok: c.ok, conf: out.fieldConfidence[path] ?? 0, truth: c.truth, pred: c.pred });
  for (const it of cmp.items)
    for (const [f, c] of Object.entries(it.fields)) {
      const path = `items[${it.number - 1}].${f}`;
      mine.push({ doc: d.id, path, kind: `items.${f}`, ok: c.ok, conf: out.fieldConfidence[path] ?? 0, truth: c.truth, pred: c.pred });
    }
  rows.push(...mine);
  const wrong = mine.filter((r) => !r.ok).length + (cmp.itemCount.ok ? 0 : 1);
  docs.push({ id: d.id, confidence, manual: manualCheckRecommended(confidence, warnings), wrong, fields: mine.length });
  console.error(
    `${tier} ${d.id.padEnd(12)} conf ${confidence.toFixed(2)} manual ${manualCheckRecommended(confidence, warnings)} wrong ${wrong}/${mine.length}`,
  );
}

const pct = (a: number, b: number) => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)} %`);
const names = rows.filter((r) => r.kind === 'items.name');
console.log(
  `\n${tier}: item names right ${names.filter((r) => r.ok).length}/${names.length} (${pct(names.filter((r) => r.ok).length, names.length)})`,
);
const hiDocs = docs.filter((d) => d.confidence >= 0.9);
const hiFields = hiDocs.reduce((a, d) => a + d.fields, 0);
const hiWrong = rows.filter((r) => !r.ok && hiDocs.some((d) => d.id === r.doc)).length;
console.log(`wrong among fields of documents at confidence ≥ 0.9: ${pct(hiWrong, hiFields)} (${hiWrong}/${hiFields}, ${hiDocs.length} docs)`);
const bad = docs.filter((d) => d.wrong > 0);
console.log(
  `manual_check_recommended on documents with any wrong field: ${bad.filter((d) => d.manual).length}/${bad.length}; on fully right ones: ${docs.filter((d) => d.wrong === 0 && d.manual).length}/${docs.filter((d) => d.wrong === 0).length}`,
);
const sure = rows.filter((r) => r.conf >= 0.9);
console.log(
  `wrong among fields at field confidence ≥ 0.9: ${pct(sure.filter((r) => !r.ok).length, sure.length)} (${sure.filter((r) => !r.ok).length}/${sure.length})`,
);
const kinds = [...new Set(rows.map((r) => r.kind))];
console.log('| field | n | right | field conf ≥ 0.9 | wrong at ≥ 0.9 | right below 0.9 |');
console.log('|---|---|---|---|---|---|');
for (const k of kinds) {
  const rs = rows.filter((r) => r.kind === k);
  const hi = rs.filter((r) => r.conf >= 0.9);
  console.log(
    `| ${k} | ${rs.length} | ${rs.filter((r) => r.ok).length} | ${hi.length} | ${hi.filter((r) => !r.ok).length} | ${rs.filter((r) => r.conf < 0.9 && r.ok).length} |`,
  );
}
if (values.wrong)
  for (const r of rows.filter((x) => !x.ok))
    console.log(`${r.doc} ${r.path} conf ${r.conf.toFixed(2)}\n  truth ${JSON.stringify(r.truth)}\n  read  ${JSON.stringify(r.pred)}`);
