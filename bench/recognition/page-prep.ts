/**
 * Milliseconds a page spends in preparation (preprocess.ts `preparePage`: decoding, the sheet's outline and warp, the
 * light correction, deconvolution, rule erasure, the PNG for Tesseract) against the page read of the same prepared
 * page (`tesseract --psm 4`, the page's model), measured in the same run on every page of the development set
 * (`../shared/data/recognition-dev/`). The page read is the baseline: its time does not depend on this code, so the
 * ratio prep / read compares runs of different commits on a machine whose speed drifts. Prints p50 and mean per tier,
 * the ratio of the means, a hash of the prepared pixels and rules per tier (equal hashes: the same pages), and the load
 * average at start and end.
 * `npx tsx --conditions=source bench/recognition/page-prep.ts [--tier clean|scan|photo|all] [--rounds N]` (default all
 * tiers, 2 rounds). Not a test.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ImageQuality } from '../../packages/recognition-api/src/engine/engine.port.js';
import { OCR_LANGS } from '../../packages/recognition-api/src/engine/ocr/page-ocr.js';
import { photoTessdata } from '../../packages/recognition-api/src/engine/ocr/photo-model.js';
import { preparePage } from '../../packages/recognition-api/src/engine/ocr/preprocess.js';
import { runTesseract } from '../../packages/recognition-api/src/engine/ocr/tesseract.js';

const { values } = parseArgs({ options: { tier: { type: 'string', default: 'all' }, rounds: { type: 'string', default: '2' } } });
const devDir = resolve(process.env.RECOGNITION_DEV_SET ?? join(import.meta.dirname, '../../../shared/data/recognition-dev'));
const index = JSON.parse(readFileSync(join(devDir, 'set/index.json'), 'utf8')) as {
  documents: { id: string; variants: Record<string, string[]> }[];
};
const tiers = values.tier === 'all' ? ['clean', 'scan', 'photo'] : [values.tier!];
const rounds = Number(values.rounds);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`load average at start ${load()}`);
console.log('| tier | pages × rounds | prep p50 / mean ms | page read p50 / mean ms | prep / read (means) | pages hash |');
console.log('|---|---|---|---|---|---|');
for (const tier of tiers) {
  // The service reads a `clean` page as a scan and a `photo` as a photo (the scorer's image_quality).
  const quality: ImageQuality = tier === 'photo' ? 'photo' : 'scan';
  const tessdataDir = quality === 'photo' ? await photoTessdata() : null;
  const pages = index.documents.flatMap((d) => (d.variants[tier] ?? []).map((f) => readFileSync(join(devDir, 'set', d.id, f))));
  const prep: number[] = [];
  const read: number[] = [];
  const hash = createHash('sha1');
  await preparePage(pages[0], quality); // OpenCV's load is no page's time
  for (let r = 0; r < rounds; r++) {
    for (const bytes of pages) {
      const t0 = performance.now();
      const page = await preparePage(bytes, quality);
      const t1 = performance.now();
      await runTesseract(page.png, ['-l', OCR_LANGS[quality], '--psm', '4', '--dpi', '300', 'tsv'], tessdataDir ? { tessdataDir } : {});
      prep.push(t1 - t0);
      read.push(performance.now() - t1);
      if (r === 0) hash.update(page.png).update(JSON.stringify(page.rules));
    }
  }
  const f = (xs: number[]) => `${p50(xs).toFixed(0)} / ${mean(xs).toFixed(0)}`;
  console.log(
    `| ${tier} | ${pages.length} × ${rounds} | ${f(prep)} | ${f(read)} | ${(mean(prep) / mean(read)).toFixed(3)} | ${hash.digest('hex').slice(0, 12)} |`,
  );
}
console.log(`load average at end ${load()}`);
