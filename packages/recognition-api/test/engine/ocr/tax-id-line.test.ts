import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Word } from '../../../src/engine/extract/words.js';
import { rereadMissingTaxIdLines, rereadTaxIdLines, taxIdPairValid } from '../../../src/engine/ocr/tax-id-line.js';

const word = (text: string, left: number, width: number): Word => ({ text, conf: 90, left, top: 300, width, height: 24, line: '1.1.1' });

describe('taxIdPairValid', () => {
  it('accepts an INN with valid check digits and a KPP of the right format, with or without the slash', () => {
    expect(taxIdPairValid('6164731610/616401001')).toBe(true);
    expect(taxIdPairValid('61647316101616401001')).toBe(true);
    // An individual entrepreneur: 12-digit INN, no KPP.
    expect(taxIdPairValid('500100732259')).toBe(true);
  });

  it('rejects a lone digit, a wrong check digit, a short KPP and a 10-digit INN without KPP', () => {
    expect(taxIdPairValid('4')).toBe(false);
    expect(taxIdPairValid('6164731611/616401001')).toBe(false);
    expect(taxIdPairValid('6164731610/61640100')).toBe(false);
    expect(taxIdPairValid('6164731610')).toBe(false);
  });
});

describe('rereadTaxIdLines', () => {
  it('leaves a line whose value validates alone, without calling Tesseract', async () => {
    const words = [word('ИНН/КПП', 623, 142), word('продавца:', 778, 144), word('6164731610/616401001', 1294, 353), word('(2б)', 3339, 48)];
    const png = await sharp({ create: { width: 3500, height: 800, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    // A missing binary would reject with engine_unavailable: the test proves no read happens.
    const out = await rereadTaxIdLines(words, { png, width: 3500, height: 800 }, { tesseractPath: '/nonexistent/tesseract' });
    expect(out).toBe(words);
  });

  it('keeps the first read when the re-read does not validate either (blank region)', async () => {
    const words = [word('ИНН/КПП', 623, 142), word('продавца:', 778, 144), word('4', 1348, 16), word('(2б)', 3339, 48)];
    const png = await sharp({ create: { width: 3500, height: 800, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const out = await rereadTaxIdLines(words, { png, width: 3500, height: 800 }, {});
    expect(out.map((w) => w.text)).toEqual(['ИНН/КПП', 'продавца:', '4', '(2б)']);
  });
});

describe('rereadMissingTaxIdLines: a tax-id line the page read skipped entirely', () => {
  const at = (text: string, left: number, top: number, width: number): Word => ({ text, conf: 90, left, top, width, height: 30, line: `p.${top}` });
  // Lines (2), (2а) and (3) as the page read returned them; the (2б) line between (2а) and (3) is missing.
  const page = [
    at('Продавец:', 130, 200, 150),
    at('ООО', 1300, 200, 70),
    at('«Вереск»', 1380, 200, 150),
    at('Адрес:', 130, 260, 100),
    at('Тверь', 1300, 260, 100),
    at('Грузоотправитель', 130, 380, 260),
  ];
  const render = (band: string) =>
    sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="3500" height="600"><rect width="100%" height="100%" fill="white"/>` +
          `<text x="130" y="338" font-family="DejaVu Sans" font-size="34" fill="#111">${band}</text></svg>`,
      ),
    )
      .png()
      .toBuffer();

  it('reads the band between the address and the next line, and adds its words when the pair validates', async () => {
    const png = await render('ИНН/КПП продавца: 6164731610/616401001');
    const out = await rereadMissingTaxIdLines(page, { png, width: 3500, height: 600 }, {});
    const added = out.slice(page.length).map((w) => w.text);
    expect(added.join(' ')).toMatch(/продавца:? 6164731610\/616401001/);
    // Placed in the band, in page pixels.
    const value = out.find((w) => w.text.includes('6164731610'))!;
    expect(value.top).toBeGreaterThan(290);
    expect(value.top).toBeLessThan(380);
  }, 30_000);

  it('adds nothing when the band holds no valid pair, and reads nothing when the line is there', async () => {
    const wrong = await render('ИНН/КПП продавца: 6164731611/616401001');
    expect(await rereadMissingTaxIdLines(page, { png: wrong, width: 3500, height: 600 }, {})).toEqual(page);
    const withLine = [...page, at('ИНН/КПП', 130, 320, 140), at('продавца:', 290, 320, 150), at('4', 1300, 320, 16)];
    // The line was read (its value is for rereadTaxIdLines): no Tesseract call, which a missing binary would reject.
    const out = await rereadMissingTaxIdLines(withLine, { png: wrong, width: 3500, height: 600 }, { tesseractPath: '/nonexistent/tesseract' });
    expect(out).toBe(withLine);
  }, 30_000);
});
