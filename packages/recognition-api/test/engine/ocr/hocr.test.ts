import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { HOCR_CHOICE_ARGS, parseHocr } from '../../../src/engine/ocr/hocr.js';
import { runTesseract } from '../../../src/engine/ocr/tesseract.js';
import { parseTsv } from '../../../src/engine/ocr/tsv.js';

/** hOCR as Tesseract 5 writes it with HOCR_CHOICE_ARGS: one line, two words, the first with glyph choices. */
const SAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"
    "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
 <body>
  <div class='ocr_page' id='page_1' title='image "stdin"; bbox 0 0 900 100; ppageno 0; scan_res 300 300'>
   <div class='ocr_carea' id='block_1_1' title="bbox 10 20 400 60">
    <p class='ocr_par' id='par_1_1' lang='rus' title="bbox 10 20 400 60">
     <span class='ocr_line' id='line_1_1' title="bbox 10 20 400 60; baseline 0 -4; x_size 30">
      <span class='ocrx_word' id='word_1_1' title='bbox 10 20 70 50; x_wconf 54'>
       <span class='ocrx_cinfo' title='x_bboxes 10 20 30 50; x_conf 99.5'>д</span>
        <span class='ocrx_cinfo' id='lstm_choices_1_1_1'>
         <span class='ocrx_cinfo' id='choice_1_1_1' title='x_confs 93.0'>д</span>
         <span class='ocrx_cinfo' id='choice_1_1_2' title='x_confs 0'>л</span>
        </span>
       <span class='ocrx_cinfo' title='x_bboxes 30 20 50 50; x_conf 80.1'>о</span>
        <span class='ocrx_cinfo' id='lstm_choices_1_1_2'>
         <span class='ocrx_cinfo' id='choice_1_1_3' title='x_confs 12.5'>а</span>
         <span class='ocrx_cinfo' id='choice_1_1_4' title='x_confs 57.2'>о</span>
        </span>
       <span class='ocrx_cinfo' title='x_bboxes 50 20 70 50; x_conf 91'>м</span>
      </span>
      <span class='ocrx_word' id='word_1_2' title='bbox 90 20 160 50; x_wconf 96'>R&amp;D</span>
      <span class='ocrx_word' id='word_1_3' title='bbox 170 20 200 50; x_wconf -1'>~</span>
     </span>
    </p>
   </div>
  </div>
 </body>
</html>`;

describe('parseHocr: Tesseract hOCR into word boxes, with the readings of each glyph', () => {
  it('gives each word its box, score and line, and its glyphs with their choices best first', () => {
    const words = parseHocr(SAMPLE);
    expect(words.map(({ glyphs: _, ...w }) => w)).toEqual([
      { text: 'дом', conf: 54, left: 10, top: 20, width: 60, height: 30, line: 'line_1_1' },
      { text: 'R&D', conf: 96, left: 90, top: 20, width: 70, height: 30, line: 'line_1_1' },
    ]);
    expect(words[0].glyphs).toEqual([
      {
        text: 'д',
        conf: 99.5,
        choices: [
          { text: 'д', conf: 93 },
          { text: 'л', conf: 0 },
        ],
      },
      {
        text: 'о',
        conf: 80.1,
        choices: [
          { text: 'о', conf: 57.2 },
          { text: 'а', conf: 12.5 },
        ],
      },
      { text: 'м', conf: 91, choices: [] },
    ]);
    expect(words[1].glyphs).toBeUndefined(); // no glyph elements: the word's text, and no choices
  });

  it('gives no words for text that is no hOCR', () => {
    expect(parseHocr('')).toEqual([]);
    expect(parseHocr('level\tpage_num\n5\t1\t1\t1\t1\t1\t10\t20\t60\t30\t54\tдом')).toEqual([]);
  });

  it('reads a real Tesseract run as its TSV output reads: the same words, boxes and scores, plus choices', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="160"><rect width="100%" height="100%" fill="#fff"/>
      <text x="20" y="70" font-family="DejaVu Sans" font-size="44">Грунтовка акриловая 10 л</text>
      <text x="20" y="140" font-family="DejaVu Sans" font-size="44">Провод ПВС 2х0,75 мм</text></svg>`;
    const png = await sharp(Buffer.from(svg)).grayscale().png().toBuffer();
    const base = ['-l', 'rus+eng', '--psm', '6', '--dpi', '300'];
    const fromTsv = parseTsv(await runTesseract(png, [...base, 'tsv']));
    const fromHocr = parseHocr(await runTesseract(png, [...base, ...HOCR_CHOICE_ARGS, 'hocr']));
    expect(fromHocr.map((w) => w.text)).toEqual(fromTsv.map((w) => w.text));
    expect(fromHocr.map((w) => [w.left, w.top, w.width, w.height])).toEqual(fromTsv.map((w) => [w.left, w.top, w.width, w.height]));
    fromHocr.forEach((w, i) => expect(Math.abs(w.conf - fromTsv[i].conf)).toBeLessThanOrEqual(1));
    expect(fromHocr.map((w) => w.text).join(' ')).toContain('Грунтовка');
    for (const w of fromHocr) {
      expect(w.glyphs?.map((g) => g.text).join('')).toBe(w.text);
      expect(w.glyphs?.some((g) => g.choices.length > 0)).toBe(true);
    }
  }, 60_000);
});
