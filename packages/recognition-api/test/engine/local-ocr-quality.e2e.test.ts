import { afterAll, describe, expect, it } from 'vitest';
import { closeRenderer, generateDocument, type GenerateOptions } from '@app/docgen';
import { createLocalOcrEngine } from '../../src/engine/ocr/index.js';

// End to end with the real Tesseract, poppler-utils and chromium of scripts/check-system.mjs: one generated document
// per recognition-quality case (bench/recognition/cases.ts), recognised with `document_type=auto` and compared with the
// generator's truth. Kept small (2–3 lines, one page where the case allows); bench/recognition measures at scale.
const engine = createLocalOcrEngine({ concurrency: 2 });
// Latin names need the opt-in rus+eng reading (the default is rus: docs/recognition-engine.md "Latin letters").
const latinEngine = createLocalOcrEngine({ concurrency: 2, languages: 'rus+eng' });

afterAll(async () => {
  await closeRenderer();
});

async function recognise(opts: GenerateOptions, e = engine) {
  const doc = await generateDocument(opts);
  const out = await e.recognize({ images: doc.images, documentType: 'auto', imageQuality: 'scan' });
  return { doc, out };
}

describe('local OCR engine on the recognition-quality cases', () => {
  it('Latin brand names and model codes come back in Latin (opt-in rus+eng and per-token look-alike resolution)', async () => {
    const { doc, out } = await recognise({ seed: 13002, type: 'upd', tier: 'scan', lines: 3, latinNames: true }, latinEngine);
    expect(out.documentType).toBe('upd');
    expect(out.data.items.map((i) => i.name)).toEqual(doc.truth.items.map((i) => i.name));
    expect(doc.truth.items.some((i) => /[A-Za-z]/.test(i.name))).toBe(true);
  }, 120_000);

  it('a date printed in words («12» марта 2026 г.) is read as DD.MM.YYYY', async () => {
    const { doc, out } = await recognise({ seed: 14001, type: 'invoice', tier: 'scan', lines: 2, dateStyle: 'guillemets' });
    expect(out.documentType).toBe('invoice');
    expect(out.data.document).toEqual(doc.truth.document);
  }, 120_000);

  it('a text-layer PDF (chromium print) over two sheets is read from its text: every line and the totals', async () => {
    const { doc, out } = await recognise({ seed: 16003, type: 'torg12', tier: 'scan', lines: 14, output: 'pdf-text' });
    expect(out.pages).toBe(2);
    expect(out.documentType).toBe('torg12');
    expect(out.data.document).toEqual(doc.truth.document);
    expect(out.data.items).toEqual(doc.truth.items);
    expect(out.data.totals).toEqual(doc.truth.totals);
  }, 120_000);

  it('a scanned PDF (page images, no text) is rendered at 300 DPI and read by OCR', async () => {
    const { doc, out } = await recognise({ seed: 17001, type: 'upd', tier: 'scan', lines: 2, output: 'pdf-scan' });
    expect(out.pages).toBe(1);
    expect(out.documentType).toBe('upd');
    expect(out.data.document).toEqual(doc.truth.document);
    expect(out.data.totals).toEqual(doc.truth.totals);
    expect(out.data.items.map((i) => i.amount_with_nds)).toEqual(doc.truth.items.map((i) => i.amount_with_nds));
  }, 120_000);

  it('a table continued on a sheet without any header keeps every line', async () => {
    const { doc, out } = await recognise({ seed: 15001, type: 'torg12', tier: 'scan', lines: 13, continuation: 'no-header', output: 'pdf-text' });
    expect(out.pages).toBe(2);
    expect(out.data.items.map((i) => i.number)).toEqual(doc.truth.items.map((i) => i.number));
    expect(out.data.totals).toEqual(doc.truth.totals);
  }, 120_000);
});
