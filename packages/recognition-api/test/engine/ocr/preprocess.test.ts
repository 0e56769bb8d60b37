import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { photoOnTable, Rng } from '@app/docgen';
import { PHOTO_BLUR_SIGMA } from '../../../src/engine/ocr/deblur.js';
import { preparePage, tableRules } from '../../../src/engine/ocr/preprocess.js';
import { MAX_PHOTO_SIGMA } from '../../../src/engine/ocr/rule-blur.js';

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

describe('tableRules: a photo read from one image, its rules found in another', () => {
  // A column rule the read image's light correction took almost to paper (15 levels, under the rule mask's 28),
  // while the image the rules are found in keeps it dark.
  const w = 400;
  const h = 600;
  const page = (rule: number) => {
    const px = new Uint8Array(w * h).fill(250);
    for (let y = 50; y < 550; y++) px[y * w + 200] = rule;
    for (let y = 100; y < 112; y++) px.fill(40, y * w + 50, y * w + 150);
    return px;
  };

  it('finds the rule in the rule image and erases it in the read one, text left alone', async () => {
    const read = page(235);
    const found = await tableRules({ data: read, width: w, height: h }, { scale: 1, photo: true }, { data: page(120), width: w, height: h });
    expect(found.map((r) => r.x)).toEqual([200]);
    expect(read[105 * w + 100]).toBe(40);
  });

  it('finds nothing in the read image alone, and refuses a rule image of another size', async () => {
    expect(await tableRules({ data: page(235), width: w, height: h }, { scale: 1, photo: true })).toEqual([]);
    await expect(
      tableRules({ data: page(235), width: w, height: h }, { scale: 1, photo: true }, { data: page(120), width: w, height: h - 1 }),
    ).rejects.toThrow(/size/);
  });
});

describe('a flattened photo is deconvolved for the blur its printed rules show', () => {
  /** A ruled table at 300 DPI: 3-px rules every 90 px down and every 250 px across, text-like bars in the cells. */
  async function ruledTable(blur: number): Promise<Buffer> {
    const parts: string[] = [];
    for (let y = 300; y <= 2200; y += 90) parts.push(`<rect x="200" y="${y}" width="3100" height="3" fill="#111"/>`);
    for (let x = 200; x <= 3300; x += 250) parts.push(`<rect x="${x}" y="300" width="3" height="1903" fill="#111"/>`);
    for (let y = 330; y < 2200; y += 90)
      for (let x = 230; x < 3300; x += 250) parts.push(`<rect x="${x}" y="${y}" width="${120 + ((x + y) % 90)}" height="22" fill="#333"/>`);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="3508" height="2480"><rect width="100%" height="100%" fill="white"/>${parts.join('')}</svg>`;
    const page = sharp(Buffer.from(svg)).flatten({ background: '#ffffff' });
    return (blur > 0 ? page.blur(blur) : page).png().toBuffer();
  }

  it('a typical photo at the tuned σ, one whose lens blurred the page more at a larger σ', async () => {
    const sharpPhoto = await preparePage((await photoOnTable(await ruledTable(0), new Rng(4))).jpeg, 'photo');
    const blurredPhoto = await preparePage((await photoOnTable(await ruledTable(3), new Rng(4))).jpeg, 'photo');
    expect(sharpPhoto.flattened && blurredPhoto.flattened).toBe(true);
    expect(sharpPhoto.deblurSigma).toBe(PHOTO_BLUR_SIGMA);
    expect(blurredPhoto.deblurSigma).toBeGreaterThan(PHOTO_BLUR_SIGMA);
    expect(blurredPhoto.deblurSigma).toBeLessThanOrEqual(MAX_PHOTO_SIGMA);
    // Off for the second reading, as before.
    expect((await preparePage((await photoOnTable(await ruledTable(3), new Rng(4))).jpeg, 'photo', { deblur: false })).deblurSigma).toBeNull();
  }, 180_000);
});
