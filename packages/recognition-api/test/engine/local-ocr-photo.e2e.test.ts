import { afterAll, describe, expect, it } from 'vitest';
import { closeRenderer, generateDocument } from '@app/docgen';
import { createLocalOcrEngine } from '../../src/engine/ocr/index.js';

// End to end with the real Tesseract, chromium and OpenCV.js, like local-ocr.e2e.test.ts: a phone photo of a
// sheet lying on a desk (docgen tier `photo-table`, the benchmark's first document: sheet on part of a 2000 px frame, tilted, keystoned,
// shadowed, JPEG) is sent as `photo`; the sheet is found, flattened to A4 and its header read exactly.
const engine = createLocalOcrEngine({ concurrency: 2 });

afterAll(async () => {
  await closeRenderer();
});

describe('local OCR engine on a photo of a sheet on a table', () => {
  it('reads the header fields of a UPD photographed on a desk', async () => {
    const doc = await generateDocument({ seed: 13000, type: 'upd', tier: 'photo-table' });
    // The type is given: UPD/invoice classification is measured by the benchmark, not the subject here.
    const out = await engine.recognize({ images: doc.images, documentType: 'upd', imageQuality: 'photo' });
    expect(out.data.document).toEqual(doc.truth.document);
    expect({ ...out.data.seller, address: null }).toEqual({ ...doc.truth.seller, address: null });
    expect({ ...out.data.buyer, address: null }).toEqual({ ...doc.truth.buyer, address: null });
    expect(out.data.totals).toEqual(doc.truth.totals);
  }, 300_000);

  it('re-reads a seller INN/KPP line whose first read fails its checks', async () => {
    // Benchmark seed 13009: the page read returns a lone "4" for "ИНН/КПП продавца"; the line's crop read as a
    // single line gives the digits, kept because the INN's check digits and the KPP's format hold.
    const doc = await generateDocument({ seed: 13009, type: 'upd', tier: 'photo-table' });
    const out = await engine.recognize({ images: doc.images, documentType: 'upd', imageQuality: 'photo' });
    expect({ inn: out.data.seller.inn, kpp: out.data.seller.kpp }).toEqual({ inn: doc.truth.seller.inn, kpp: doc.truth.seller.kpp });
  }, 300_000);
});
