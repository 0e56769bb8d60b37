import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Word } from '../../../src/engine/extract/words.js';
import { rereadTaxIdLines, taxIdPairValid } from '../../../src/engine/ocr/tax-id-line.js';

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
