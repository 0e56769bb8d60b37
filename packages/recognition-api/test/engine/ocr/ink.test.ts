import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { inkAwareGray } from '../../../src/engine/ocr/ink.js';
import { preparePage } from '../../../src/engine/ocr/preprocess.js';

const W = 1200;
const H = 500;
/** Black printed digits with a blue stamp ring (and a violet signature stroke) drawn over them, as a 300 DPI scan. */
async function stampedDigits(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
    <rect width="100%" height="100%" fill="#f4f2ec"/>
    <text x="100" y="290" font-family="DejaVu Sans" font-size="150" fill="#151515">4 027,76</text>
    <circle cx="600" cy="250" r="190" fill="none" stroke="#2b3fae" stroke-width="14" opacity="0.85"/>
    <path d="M 150 380 C 400 300, 700 460, 1000 330" fill="none" stroke="#6a3aa8" stroke-width="9"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const at = (px: Uint8Array, x: number, y: number) => px[y * W + x];

describe('inkAwareGray: blue/violet stamps and signatures over printed text', () => {
  it('fades blue and violet ink to paper and keeps black toner black, also where the ink crosses it', async () => {
    const { data, info } = await sharp(await stampedDigits())
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const gray = inkAwareGray(data, W * H, info.channels);
    const lum = await sharp(await stampedDigits())
      .grayscale()
      .raw()
      .toBuffer();
    // The ring's top, above the digits: luminance keeps it a dark stroke, the ink-aware grey makes it paper.
    expect(at(lum, 600, 60)).toBeLessThan(110);
    expect(at(gray, 600, 60)).toBeGreaterThan(180);
    // The violet signature stroke below the digits.
    const sig = [...Array(W).keys()].map((x) => Math.min(...[...Array(H).keys()].slice(330, 470).map((y) => at(gray, x, y))));
    expect(Math.min(...sig.slice(200, 950))).toBeGreaterThan(150);
    // Black digits stay dark, including under the ring (the "0" of 027 sits on the ring's left side).
    const darkest = (x0: number, x1: number) => {
      let m = 255;
      for (let y = 160; y < 300; y++) for (let x = x0; x < x1; x++) m = Math.min(m, at(gray, x, y));
      return m;
    };
    expect(darkest(100, 200)).toBeLessThan(60);
    expect(darkest(395, 430)).toBeLessThan(60);
  });

  it('leaves neutral and warm pixels at their luminance', () => {
    const px = new Uint8Array([250, 248, 240, 20, 20, 22, 150, 110, 90]);
    expect([...inkAwareGray(px, 3, 3)]).toEqual([248, 20, 120]);
  });

  it('refuses a buffer shorter than its pixel count', () => {
    expect(() => inkAwareGray(new Uint8Array(5), 2, 3)).toThrow(RangeError);
  });

  it('is applied by preparePage: the stamp ring is gone from the page Tesseract reads', async () => {
    const page = await preparePage(await stampedDigits(), 'scan');
    const data = await sharp(page.png).toColourspace('b-w').raw().toBuffer();
    const scale = page.width / W;
    const y = Math.round(60 * scale);
    const x = Math.round(600 * scale);
    // Above Otsu's cut between the black digits and the paper (luminance would give ≈ 95: a black ring).
    expect(data[y * page.width + x]).toBeGreaterThan(150);
  }, 60_000);
});
