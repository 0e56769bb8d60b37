import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalOcrEngine } from '@app/recognition-api';

const PDF_DIR = join(import.meta.dirname, '../../../shared/data/torg12-1c-samples/pdf');
const ALT_PDF_DIR = '/work/shared/data/torg12-1c-samples/pdf';

/**
 * Runs the engine on the real 1C TORG-12 samples, rendered with `pdftoppm -r 300` (OCR) and as the PDF itself
 * (text layer, engine/pdf), and prints what it read:
 * there is no ground truth file, so the output is for reading next to the PDF (docs/recognition-engine.md).
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
      spawnSync('pdftoppm', ['-r', '300', '-png', join(dir, pdf), join(tmp, 'p')]);
      const rendered = readdirSync(tmp)
        .sort()
        .map((f) => readFileSync(join(tmp, f)));
      // Twice: the pages rendered to PNG (the OCR path, as a scan of the print), and the PDF itself (text layer).
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
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
}

function print(out: Awaited<ReturnType<LocalOcrEngine['recognizeDetailed']>>): void {
  console.log(JSON.stringify({ document: out.data.document, seller: out.data.seller, buyer: out.data.buyer, totals: out.data.totals }));
  for (const it of out.data.items.slice(0, 80)) console.log(JSON.stringify(it));
  console.log(`warnings: ${JSON.stringify(out.warnings)}`);
}
