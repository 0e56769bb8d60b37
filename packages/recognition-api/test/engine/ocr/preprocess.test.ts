import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { photoOnTable, Rng } from '@app/docgen';
import { preparePage } from '../../../src/engine/ocr/preprocess.js';

/** A flat A4 scan at 300 DPI filling the frame: white with dark text-like bars. */
async function scan(): Promise<Buffer> {
  const bars = Array.from(
    { length: 30 },
    (_, i) => `<rect x="200" y="${150 + i * 70}" width="${1500 + ((i * 97) % 1500)}" height="22" fill="#222"/>`,
  );
  return sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="3508" height="2480"><rect width="100%" height="100%" fill="white"/>${bars.join('')}</svg>`,
    ),
  )
    .png()
    .toBuffer();
}

describe('preparePage with the sheet-outline step', () => {
  it('leaves a flat scan that fills the frame as it was, even when sent as a photo (no outline found)', async () => {
    const png = await scan();
    for (const quality of ['photo', 'scan'] as const) {
      const page = await preparePage(png, quality);
      expect(page.flattened).toBe(false);
      expect([page.width, page.height]).toEqual([3508, 2480]);
    }
  }, 120_000);

  it('flattens a photo of a sheet on a desk to A4 landscape at 300 DPI, also when sent as `scan`', async () => {
    const { jpeg } = await photoOnTable(await scan(), new Rng(9));
    const page = await preparePage(jpeg, 'scan');
    expect(page.flattened).toBe(true);
    expect([page.width, page.height]).toEqual([3508, 2480]);
  }, 120_000);
});
