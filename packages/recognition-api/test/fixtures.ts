import sharp from 'sharp';
import type { LineItem, RecognizedData, RecognitionEngine, RecognitionInput, RecognitionOutput, EngineHealth } from '../src/engine/engine.port.js';
import { RecognitionFailedError } from '../src/engine/engine.port.js';

/** Valid 10-digit INNs (check digits correct). */
export const SELLER_INN = '7707083893';
export const BUYER_INN = '7736207543';

/** A line that passes every rule: 2 × 100.00 + 20 % VAT. */
export function makeItem(over: Partial<LineItem> = {}): LineItem {
  return {
    number: 1,
    name: 'Бумага А4',
    product_code: 'A4-500',
    unit: { code: '796', name: 'шт' },
    quantity: 2,
    price: 100,
    amount_without_nds: 200,
    nds_rate: 20,
    nds_amount: 40,
    amount_with_nds: 240,
    ...over,
  };
}

/** A document dated 15.11.2025 (20 % in force) whose lines and totals agree: no warnings, confidence 1.00. */
export function makeData(over: Partial<RecognizedData> = {}): RecognizedData {
  const items = over.items ?? [
    makeItem(),
    makeItem({ number: 2, name: 'Ручка', quantity: 3, price: 33.33, amount_without_nds: 99.99, nds_amount: 20, amount_with_nds: 119.99 }),
  ];
  return {
    document: { number: 'УПД-17', date: '15.11.2025' },
    seller: { name: 'ООО «Поставщик»', inn: SELLER_INN, kpp: '770701001', address: 'Москва' },
    buyer: { name: 'ООО «Покупатель»', inn: BUYER_INN, kpp: '773601001' },
    items,
    totals: { amount_without_nds: 299.99, nds_amount: 60, amount_with_nds: 359.99 },
    ...over,
  };
}

/** A scriptable engine: returns `output` (or throws `fail`), records its inputs, optional gate to hold a call. */
export class FakeEngine implements RecognitionEngine {
  readonly name = 'fake';
  calls: RecognitionInput[] = [];
  data: RecognizedData = makeData();
  fail: RecognitionFailedError | Error | null = null;
  healthState: EngineHealth = 'ok';
  /** When set, recognize waits for it (or for the abort signal). */
  gate: Promise<void> | null = null;

  async recognize(input: RecognitionInput): Promise<RecognitionOutput> {
    this.calls.push(input);
    if (this.gate) {
      await new Promise<void>((resolve, reject) => {
        this.gate!.then(resolve);
        input.signal?.addEventListener('abort', () => reject(new RecognitionFailedError('timeout', 'aborted')));
      });
    }
    if (this.fail) throw this.fail;
    return { documentType: input.documentType === 'auto' ? 'upd' : input.documentType, data: this.data, warnings: [], pages: input.images.length };
  }

  async health(): Promise<EngineHealth> {
    return this.healthState;
  }
}

/** A small real PNG page (white with a dark bar), built from raw pixels. */
export async function pngPage(width = 64, height = 48): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3, 255);
  for (let x = 0; x < width * 3 * 4; x++) raw[width * 3 * 10 + x] = 20;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

export async function jpegPage(width = 64, height = 48): Promise<Buffer> {
  return sharp(await pngPage(width, height))
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A multipart form for POST /recognize with sensible defaults; `files` go in as images[]. */
export function recognizeForm(files: Buffer[], fields: Record<string, string> = {}, names?: string[]): FormData {
  const form = new FormData();
  const all = { document_type: 'upd', image_quality: 'scan', ...fields };
  for (const [k, v] of Object.entries(all)) if (v !== '') form.append(k, v);
  files.forEach((f, i) => form.append('images[]', new Blob([new Uint8Array(f)]), names?.[i] ?? `page${i + 1}.png`));
  return form;
}
