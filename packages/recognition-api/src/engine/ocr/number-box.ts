import sharp from 'sharp';
import { centerX, centerY, type Word } from '../extract/words.js';
import type { PreparedPage } from './preprocess.js';
import { runTesseract, type TesseractCall } from './tesseract.js';
import { parseTsv } from './tsv.js';

/**
 * TORG-12 prints number and date in a small ruled box beside the large "ТОВАРНАЯ НАКЛАДНАЯ" title; Tesseract's
 * page layout merges that row with the title and garbles it. When the page has the "Номер документа | Дата
 * составления" captions, the cells under them are cropped and read again as one text block (`--psm 6`), and
 * the page's words in that area are replaced by the result. Coordinates stay in page pixels.
 */
export async function rereadNumberBox(words: Word[], page: PreparedPage, call: TesseractCall): Promise<Word[]> {
  const nomer = words.find((w, i) => /^номер$/i.test(w.text) && /^документа/i.test(words[i + 1]?.text ?? ''));
  if (!nomer) return words;
  const sameLine = words.filter((w) => Math.abs(centerY(w) - centerY(nomer)) < nomer.height && w.left >= nomer.left);
  const last = sameLine.find((w) => /^составлени/i.test(w.text)) ?? sameLine[sameLine.length - 1];
  const h = nomer.height;
  const box = {
    left: Math.max(0, Math.round(nomer.left - h)),
    top: Math.round(nomer.top + 1.6 * h),
    width: Math.round(last.left + last.width + h - nomer.left + h),
    height: Math.round(2.2 * h),
  };
  box.width = Math.min(box.width, page.width - box.left);
  box.height = Math.min(box.height, page.height - box.top);
  if (box.width < 4 * h || box.height < h) return words;
  // Enlarged 2× with a white margin: Tesseract reads small isolated cells better with room around them.
  const crop = await sharp(page.png)
    .extract(box)
    .resize({ width: box.width * 2 })
    .extend({ top: 40, bottom: 40, left: 40, right: 40, background: '#ffffff' })
    .png()
    .toBuffer();
  const found = parseTsv(await runTesseract(crop, ['-l', 'rus', '--psm', '6', '--dpi', '300', 'tsv'], call));
  if (found.length === 0) return words;
  const mapped = found.map((w) => ({
    ...w,
    left: box.left + (w.left - 40) / 2,
    top: box.top + (w.top - 40) / 2,
    width: w.width / 2,
    height: w.height / 2,
    line: `box.${w.line}`,
  }));
  const inBox = (w: Word) =>
    centerX(w) >= box.left && centerX(w) <= box.left + box.width && centerY(w) >= box.top && centerY(w) <= box.top + box.height;
  return [...words.filter((w) => !inBox(w)), ...mapped];
}
