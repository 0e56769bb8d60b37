import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalOcrEngine } from '@app/recognition-api';

const PDF_DIR = join(import.meta.dirname, '../../../shared/data/torg12-1c-samples/pdf');
const ALT_PDF_DIR = '/work/shared/data/torg12-1c-samples/pdf';

/**
 * Runs the engine on the real 1C TORG-12 samples (LibreOffice Calc prints of 1C's .xls, `pdf/` beside them),
 * rendered with `pdftoppm -r 200` (the OCR path, as a 200 DPI scan of the print) and as the PDF itself (text layer,
 * engine/pdf), prints what each read, and scores the OCR path against the text layer: the text layer is the
 * document's own characters, so every header key field and numeric cell where the two differ is an OCR-path error.
 * Names are compared exactly; the score line gives right / compared per group.
 */
export async function runRealSamples(engine: LocalOcrEngine): Promise<void> {
  const dir = [PDF_DIR, ALT_PDF_DIR].find((d) => existsSync(d));
  if (!dir || spawnSync('pdftoppm', ['-v']).error) {
    console.log('\nreal TORG-12 samples: skipped (no samples folder or no pdftoppm)');
    return;
  }
  for (const pdf of readdirSync(dir)
    .filter((f) => f.endsWith('.pdf'))
    .sort()) {
    const tmp = mkdtempSync(join(tmpdir(), 'torg12-'));
    try {
      spawnSync('pdftoppm', ['-r', '200', '-png', join(dir, pdf), join(tmp, 'p')]);
      const rendered = readdirSync(tmp)
        .sort()
        .map((f) => readFileSync(join(tmp, f)));
      // Twice: the pages rendered to PNG (the OCR path, as a scan of the print), and the PDF itself (text layer).
      const outs: Out[] = [];
      for (const [how, images] of [
        ['rendered pages, OCR', rendered],
        ['PDF upload, text layer', [readFileSync(join(dir, pdf))]],
      ] as const) {
        const t0 = performance.now();
        const out = await engine.recognizeDetailed({ images: [...images], documentType: 'auto', imageQuality: 'scan' });
        const secs = ((performance.now() - t0) / 1000).toFixed(1);
        const gaps = out.warnings.filter((w) => /out of sequence/.test(w.message)).length;
        console.log(
          `\n### ${pdf} (${how}): ${out.pages} page(s), ${secs} s, type ${out.documentType}, ${out.data.items.length} lines, ${gaps} out-of-sequence warnings`,
        );
        print(out);
        outs.push(out);
      }
      console.log(`score of the OCR path against the text layer: ${scoreAgainst(outs[0].data, outs[1].data)}`);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
}

type Out = Awaited<ReturnType<LocalOcrEngine['recognizeDetailed']>>;

const HEADER = ['document.number', 'document.date', 'seller.name', 'seller.inn', 'seller.kpp', 'buyer.name', 'buyer.inn', 'buyer.kpp'];
const CELLS = ['quantity', 'price', 'amount_without_nds', 'nds_rate', 'nds_amount', 'amount_with_nds'] as const;

/** "header a/b, totals c/d, cells e/f, names g/h, lines i vs j": OCR-path values equal to the reference's. */
function scoreAgainst(ocr: Out['data'], ref: Out['data']): string {
  const get = (o: unknown, p: string) => p.split('.').reduce<unknown>((a, k) => (a == null ? undefined : (a as Record<string, unknown>)[k]), o);
  const same = (a: unknown, b: unknown) =>
    String(a ?? '')
      .replace(/\s+/g, ' ')
      .trim() ===
    String(b ?? '')
      .replace(/\s+/g, ' ')
      .trim();
  const h = HEADER.filter((p) => same(get(ocr, p), get(ref, p))).length;
  const t = (['amount_without_nds', 'nds_amount', 'amount_with_nds'] as const).filter((k) => same(ocr.totals[k], ref.totals[k])).length;
  let cells = 0;
  let names = 0;
  ref.items.forEach((r, i) => {
    const o = ocr.items.find((x) => x.number === r.number) ?? ocr.items[i];
    if (!o) return;
    cells += CELLS.filter((k) => same(o[k], r[k])).length + (same(o.unit.code, r.unit.code) ? 1 : 0);
    names += same(o.name, r.name) ? 1 : 0;
  });
  const n = ref.items.length;
  return `header ${h}/${HEADER.length}, totals ${t}/3, cells ${cells}/${n * (CELLS.length + 1)}, names ${names}/${n}, lines ${ocr.items.length} vs ${n}`;
}

function print(out: Out): void {
  console.log(JSON.stringify({ document: out.data.document, seller: out.data.seller, buyer: out.data.buyer, totals: out.data.totals }));
  for (const it of out.data.items.slice(0, 80)) console.log(JSON.stringify(it));
  console.log(`warnings: ${JSON.stringify(out.warnings)}`);
}

// `npx tsx bench/recognition/real-samples.ts`: the samples alone, without the generated sets of run.ts.
if (process.argv[1]?.endsWith('real-samples.ts')) {
  const { createLocalOcrEngine } = await import('@app/recognition-api');
  await runRealSamples(createLocalOcrEngine());
}
