import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { RecognitionFailedError } from '../../src/engine/engine.port.js';
import { createLocalOcrEngine } from '../../src/engine/ocr/index.js';
import { parseOsdRotation, runTesseract } from '../../src/engine/ocr/tesseract.js';
import { parseTsv } from '../../src/engine/ocr/tsv.js';

const blankPng = () =>
  sharp({ create: { width: 400, height: 300, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
const reason = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: unknown) => (e instanceof RecognitionFailedError ? e.reason : String(e)),
  );

describe('local OCR engine: failures without running Tesseract', () => {
  it('is unavailable when the binary is missing', async () => {
    const engine = createLocalOcrEngine({ tesseractPath: '/nonexistent/tesseract' });
    expect(engine.name).toBe('tesseract');
    expect(await engine.health()).toBe('unavailable');
    expect(await reason(engine.recognize({ images: [await blankPng()], documentType: 'auto', imageQuality: 'scan' }))).toBe('engine_unavailable');
  });

  it('refuses undecodable images and empty input', async () => {
    const engine = createLocalOcrEngine({ tesseractPath: '/nonexistent/tesseract' });
    expect(await reason(engine.recognize({ images: [Buffer.from('not an image')], documentType: 'upd', imageQuality: 'scan' }))).toBe(
      'undecodable_image',
    );
    expect(await reason(engine.recognize({ images: [], documentType: 'upd', imageQuality: 'scan' }))).toBe('no_document');
  });

  it('honours an aborted signal before spawning anything', async () => {
    const engine = createLocalOcrEngine({ tesseractPath: '/nonexistent/tesseract' });
    const ac = new AbortController();
    ac.abort();
    expect(await reason(engine.recognize({ images: [await blankPng()], documentType: 'upd', imageQuality: 'scan', signal: ac.signal }))).toBe(
      'timeout',
    );
    expect(await reason(runTesseract(Buffer.alloc(0), ['tsv'], { signal: ac.signal }))).toBe('timeout');
  });

  it('kills a running tesseract when the signal aborts mid-way', async () => {
    const engine = createLocalOcrEngine();
    const ac = new AbortController();
    const big = await sharp({ create: { width: 3000, height: 2200, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const run = reason(engine.recognize({ images: [big], documentType: 'upd', imageQuality: 'scan', signal: ac.signal }));
    setTimeout(() => ac.abort(), 300);
    expect(await run).toBe('timeout');
  });

  it('parses OSD rotation and TSV word rows', () => {
    expect(parseOsdRotation('Page number: 0\nOrientation in degrees: 270\nRotate: 90\nOrientation confidence: 9.1')).toBe(90);
    expect(parseOsdRotation('garbage')).toBe(0);
    // OSD's guess on a blurred photo: under a confidence of 3 it was right once in 24 development photos on their side.
    const guess = 'Page number: 0\nOrientation in degrees: 90\nRotate: 270\nOrientation confidence: 1.19\nScript: Cyrillic';
    expect(parseOsdRotation(guess)).toBe(270);
    expect(parseOsdRotation(guess, 3)).toBe(0);
    expect(parseOsdRotation(guess.replace('1.19', '6.31'), 3)).toBe(270);
    expect(parseOsdRotation('Rotate: 90', 3)).toBe(0);
    const tsv =
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n' +
      '4\t1\t1\t1\t1\t0\t10\t20\t300\t30\t-1\t\n5\t1\t1\t1\t1\t1\t10\t20\t80\t30\t96.5\tИтого\n5\t1\t1\t1\t1\t2\t100\t20\t5\t30\t-1\t \n';
    expect(parseTsv(tsv)).toEqual([{ text: 'Итого', conf: 96.5, left: 10, top: 20, width: 80, height: 30, line: '1.1.1.1' }]);
  });
});
