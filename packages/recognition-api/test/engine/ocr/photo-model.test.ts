import { existsSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { installedTessdata, PHOTO_EXTENDED_LANGUAGE, PHOTO_EXTENDED_MODEL, PHOTO_MODEL, photoTessdata } from '../../../src/engine/ocr/photo-model.js';
import { runTesseract } from '../../../src/engine/ocr/tesseract.js';
import { parseTsv } from '../../../src/engine/ocr/tsv.js';

/** A line of made-up goods rendered at 300 DPI. */
async function line(text: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="120"><rect width="100%" height="100%" fill="white"/><text x="30" y="75" font-family="DejaVu Sans" font-size="38">${text}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('the recogniser fine-tuned on photographed type', () => {
  it('ships with the package and is given to Tesseract as rus, beside the extended model and the installed eng, osd and configs', async () => {
    expect(existsSync(PHOTO_MODEL)).toBe(true);
    const system = await installedTessdata();
    expect(system && existsSync(join(system, 'rus.traineddata'))).toBeTruthy();
    const dir = await photoTessdata();
    expect(dir).not.toBeNull();
    expect(readlinkSync(join(dir!, 'rus.traineddata'))).toBe(PHOTO_MODEL);
    expect(existsSync(PHOTO_EXTENDED_MODEL)).toBe(true);
    expect(readlinkSync(join(dir!, `${PHOTO_EXTENDED_LANGUAGE}.traineddata`))).toBe(PHOTO_EXTENDED_MODEL);
    for (const entry of ['eng.traineddata', 'osd.traineddata', 'configs']) expect(readlinkSync(join(dir!, entry))).toBe(join(system!, entry));
    expect(await photoTessdata()).toBe(dir); // built once
  });

  it('reads a line with rus, rus+eng, the extended model and the tsv config from that directory', async () => {
    const dir = (await photoTessdata())!;
    const image = await line('Вилка кабельная прямая 16А, 3 шт.');
    for (const lang of ['rus', 'rus+eng', PHOTO_EXTENDED_LANGUAGE]) {
      const words = parseTsv(await runTesseract(image, ['-l', lang, '--psm', '7', '--dpi', '300', 'tsv'], { tessdataDir: dir }));
      expect(words.map((w) => w.text).join(' '), lang).toContain('кабельная');
    }
  }, 60_000);
});
