/**
 * A page read in two bands side by side (issue 20: seconds per page): where the cut may go (a blank run of rows, at the
 * page's tilt, nearest half the ink), how the bands are cut, and how their words come back together.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutBands, findPageCut, MIN_GAP_ROWS, readPageInBands, STRIP, type GreyRaster } from '../../../src/engine/ocr/page-bands.js';
import { RecognitionFailedError } from '../../../src/engine/engine.port.js';
import { createLocalOcrEngine } from '../../../src/engine/ocr/index.js';
import { Limiter } from '../../../src/engine/ocr/limiter.js';

const W = 1200;

/**
 * A white page with a "text line" at each of `lines` (its top row and height, px): words of ink 60 px wide, 20 px apart,
 * from x = 50 to 1150, moved down by tan(`tilt`°) × (x − the page's centre) when the page is tilted.
 */
function page(height: number, lines: { top: number; height: number }[], tilt = 0): GreyRaster {
  const data = new Uint8Array(W * height).fill(255);
  const slope = Math.tan((tilt * Math.PI) / 180);
  for (const line of lines) {
    for (let x = 50; x < 1150; x++) {
      if ((x - 50) % 80 >= 60) continue;
      const dy = Math.round(slope * (x - W / 2));
      for (let y = line.top + dy; y < line.top + dy + line.height; y++) if (y >= 0 && y < height) data[y * W + x] = 0;
    }
  }
  return { data, width: W, height };
}

/** Lines of `h` px every `h + gap` px from `from`, `n` of them. */
const block = (from: number, n: number, h = 30, gap = 8) => Array.from({ length: n }, (_, i) => ({ top: from + i * (h + gap), height: h }));
/** Whether process `pid` ends within 5 s (polled: the kill is sent at once, the exit is reaped a moment later). */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
const inkBelow = (r: GreyRaster, x: number, y: number) => r.data[y * r.width + x] < 128;

describe('findPageCut', () => {
  it('cuts in the middle of the one blank run tall enough, never between lines set closer', () => {
    // 10 lines, a 24 px gap, 10 lines: the only gap of MIN_GAP_ROWS or more lies at 380–404.
    const upper = block(20, 10);
    const lower = block(20 + 10 * 38 - 8 + 24, 10);
    const cut = findPageCut(page(800, [...upper, ...lower]));
    expect(cut).not.toBeNull();
    const gapTop = 20 + 10 * 38 - 8;
    for (const row of cut!.rows) {
      expect(row).toBeGreaterThanOrEqual(gapTop);
      expect(row).toBeLessThan(gapTop + 24);
    }
  });

  it('finds no cut when every gap is shorter than MIN_GAP_ROWS', () => {
    expect(findPageCut(page(800, block(20, 20, 30, MIN_GAP_ROWS - 2)))).toBeNull();
  });

  it('of two tall gaps takes the one nearest half the ink', () => {
    // 4 lines | gap | 8 lines | gap | 8 lines: the first gap leaves a fifth of the ink above it, the second three fifths.
    const lines = [...block(20, 4), ...block(200, 8), ...block(540, 8)];
    const cut = findPageCut(page(900, lines));
    expect(cut).not.toBeNull();
    expect(cut!.rows[0]).toBeGreaterThan(200 + 8 * 38 - 8);
    expect(cut!.rows[0]).toBeLessThan(540);
  });

  it('finds no cut when the only blank run leaves less than 30 % of the ink on one side', () => {
    expect(findPageCut(page(900, [...block(20, 2), ...block(200, 16)]))).toBeNull();
  });

  it('cuts a tilted page along its tilt, between the same two lines at every strip', () => {
    // Tilted 1°: the lines drift 19 px across the page, more than the 16 px gap, so no level row is blank.
    const gapTop = 60 + 10 * 38 - 8;
    const lines = [...block(60, 10), ...block(gapTop + 16, 10)];
    const tilted = page(900, lines, 1);
    const cut = findPageCut(tilted);
    expect(cut).not.toBeNull();
    expect(cut!.rows.at(-1)! - cut!.rows[0]).toBeGreaterThan(12);
    for (let i = 0; i < cut!.rows.length; i++) {
      const x = Math.min(W - 1, i * STRIP + STRIP / 2);
      const dy = Math.round(Math.tan(Math.PI / 180) * (x - W / 2));
      expect(cut!.rows[i]).toBeGreaterThanOrEqual(gapTop + dy - 2);
      expect(cut!.rows[i]).toBeLessThanOrEqual(gapTop + 16 + dy + 2);
    }
  });

  it('counts a few specks in a gap as blank, but not a word in it', () => {
    const lines = [...block(20, 10), ...block(20 + 10 * 38 - 8 + 24, 10)];
    const specked = page(800, lines);
    const mid = 20 + 10 * 38 - 8 + 12;
    specked.data[mid * W + 300] = 0;
    expect(findPageCut(specked)).not.toBeNull();
    const worded = page(800, [...lines, { top: mid - 3, height: 6 }]);
    expect(findPageCut(worded)).toBeNull();
  });

  it('finds no cut on a blank page', () => {
    expect(findPageCut(page(400, []))).toBeNull();
  });
});

describe('cutBands', () => {
  it('paints the other side of a sloped cut white in each band and says where the lower band starts', () => {
    const gapTop = 60 + 10 * 38 - 8;
    const tilted = page(900, [...block(60, 10), ...block(gapTop + 16, 10)], 1);
    const cut = findPageCut(tilted)!;
    const { upper, lower, lowerTop } = cutBands(tilted, cut);
    expect(lowerTop).toBe(Math.min(...cut.rows));
    expect(upper.height).toBe(Math.max(...cut.rows));
    expect(lower.height).toBe(900 - lowerTop);
    let inkUpper = 0;
    let inkLower = 0;
    for (let x = 0; x < W; x++) {
      const at = cut.rows[Math.floor(x / STRIP)];
      for (let y = at; y < upper.height; y++) expect(inkBelow(upper, x, y)).toBe(false);
      for (let y = lowerTop; y < at; y++) expect(inkBelow(lower, x, y - lowerTop)).toBe(false);
      for (let y = 0; y < upper.height; y++) inkUpper += inkBelow(upper, x, y) ? 1 : 0;
      for (let y = 0; y < lower.height; y++) inkLower += inkBelow(lower, x, y) ? 1 : 0;
    }
    // Each band holds its ten lines whole: all the page's ink, none of it twice.
    let inkPage = 0;
    for (const v of tilted.data) inkPage += v < 128 ? 1 : 0;
    expect(inkUpper + inkLower).toBe(inkPage);
    expect(inkUpper).toBe(inkLower);
  });
});

describe('readPageInBands', () => {
  let dir: string;
  let twoBands: Buffer;
  let oneBlock: Buffer;
  let lowerTop: number;
  const toPng = (r: GreyRaster) =>
    sharp(r.data, { raw: { width: r.width, height: r.height, channels: 1 } })
      .png()
      .toBuffer();
  const header = 'level\\tpage_num\\tblock_num\\tpar_num\\tline_num\\tword_num\\tleft\\ttop\\twidth\\theight\\tconf\\ttext\\n';
  /** A stand-in Tesseract: logs its pid, answers one word at (10, 5) named by the image's size, or fails the lower band. */
  const fake = (name: string, lowerBand: string) => {
    const path = join(dir, name);
    const log = join(dir, `${name}.log`);
    writeFileSync(
      path,
      [
        '#!/bin/sh',
        `f=$(mktemp); cat > "$f"; size=$(wc -c < "$f"); rm -f "$f"`,
        `echo "$$" >> ${log}`,
        // The lower band is the second to start; the first logs one line before it.
        `if [ "$(wc -l < ${log})" -eq 2 ]; then ${lowerBand}; fi`,
        `printf '${header}'`,
        `printf '5\\t1\\t1\\t1\\t1\\t1\\t10\\t5\\t40\\t20\\t91\\tw%s\\n' "$size"`,
      ].join('\n'),
      { mode: 0o755 },
    );
    return { path, pids: () => readFileSync(log, 'utf8').trim().split('\n').map(Number) };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'page-bands-'));
    const raster = page(800, [...block(20, 10), ...block(20 + 10 * 38 - 8 + 24, 10)]);
    lowerTop = Math.min(...findPageCut(raster)!.rows);
    twoBands = await toPng(raster);
    oneBlock = await toPng(page(800, block(20, 20, 30, 6)));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the two bands in two processes and returns their words in page px, lines told apart', async () => {
    const t = fake('two', ':');
    const words = await readPageInBands(twoBands, ['-l', 'rus', 'tsv'], { tesseractPath: t.path });
    expect(t.pids()).toHaveLength(2);
    expect(words).toHaveLength(2);
    const [a, b] = words;
    expect(a.top).toBe(5);
    expect(b.top).toBe(5 + lowerTop);
    expect(a.line).toBe('1.1.1.1');
    expect(b.line).toBe('b.1.1.1.1');
    expect(a.text).not.toBe(b.text); // two different images went in
  });

  it('reads a page with no blank run in one process', async () => {
    const t = fake('one', ':');
    const words = await readPageInBands(oneBlock, ['-l', 'rus', 'tsv'], { tesseractPath: t.path });
    expect(t.pids()).toHaveLength(1);
    expect(words.map((w) => w.top)).toEqual([5]);
  });

  it('fails when a band fails, and stops the other band', async () => {
    // The lower band exits with an error at once; the upper one waits on the sleep the abort has to kill.
    const path = join(dir, 'failing');
    const log = join(dir, 'failing.log');
    writeFileSync(
      path,
      [
        '#!/bin/sh',
        'cat > /dev/null',
        `echo "$$" >> ${log}`,
        `if [ "$(wc -l < ${log})" -eq 2 ]; then echo broken >&2; exit 3; fi`,
        'exec sleep 30',
      ].join('\n'),
      { mode: 0o755 },
    );
    const started = Date.now();
    const err = await readPageInBands(twoBands, ['-l', 'rus', 'tsv'], { tesseractPath: path }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RecognitionFailedError);
    expect((err as RecognitionFailedError).reason).toBe('engine_error');
    expect(Date.now() - started).toBeLessThan(10_000);
    // The other band's process is killed: it is gone well before its 30 s sleep would end.
    for (const pid of readFileSync(log, 'utf8').trim().split('\n').map(Number)) await expect(gone(pid)).resolves.toBe(true);
  }, 20_000);
});

describe('the engine reads a page in bands only when a core would idle', () => {
  let dir: string;
  let upload: Buffer;
  const fixtureTsv = join(import.meta.dirname, '../fixtures/upd-2pages-p1.tsv');
  /** A stand-in Tesseract: a page read (`--psm 4`) logs itself and answers a real page's words; other reads answer none. */
  const fake = (name: string) => {
    const path = join(dir, name);
    const log = join(dir, `${name}.log`);
    writeFileSync(
      path,
      [
        '#!/bin/sh',
        'cat > /dev/null',
        `case " $* " in *" --psm 4 "*) echo page >> ${log}; cat ${fixtureTsv}; exit 0;; esac`,
        "printf 'level\\tpage_num\\tblock_num\\tpar_num\\tline_num\\tword_num\\tleft\\ttop\\twidth\\theight\\tconf\\ttext\\n'",
      ].join('\n'),
      { mode: 0o755 },
    );
    return { path, pageReads: () => readFileSync(log, 'utf8').trim().split('\n').length };
  };
  const run = (path: string, opts: { concurrency: number; pageBands?: boolean }, imageQuality: 'scan' | 'photo' = 'scan') =>
    createLocalOcrEngine({ tesseractPath: path, ...opts }).recognize({ images: [upload], documentType: 'upd', imageQuality });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'page-bands-engine-'));
    const raster = page(800, [...block(20, 10), ...block(20 + 10 * 38 - 8 + 24, 10)]);
    upload = await sharp(raster.data, { raw: { width: raster.width, height: raster.height, channels: 1 } })
      .png()
      .toBuffer();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a lone scan page in two processes when a second slot is free', async () => {
    const t = fake('free');
    await run(t.path, { concurrency: 2 });
    expect(t.pageReads()).toBe(2);
  }, 30_000);

  it('reads it whole with one slot, with pageBands off, and as a photo', async () => {
    const one = fake('one-slot');
    await run(one.path, { concurrency: 1 });
    expect(one.pageReads()).toBe(1);
    const off = fake('off');
    await run(off.path, { concurrency: 2, pageBands: false });
    expect(off.pageReads()).toBe(1);
    const photo = fake('photo');
    await run(photo.path, { concurrency: 2 }, 'photo').catch(() => undefined); // a photo of no sheet may still fail later
    expect(photo.pageReads()).toBe(1);
  }, 30_000);
});

describe('Limiter.idle', () => {
  it('counts the slots no task holds', async () => {
    const limiter = new Limiter(2);
    expect(limiter.idle).toBe(2);
    let release!: () => void;
    const held = limiter.run(() => new Promise<void>((r) => (release = r)));
    const seen = await limiter.run(async () => limiter.idle);
    expect(seen).toBe(0); // asked from inside run: the other slot is held, this one is its own
    release();
    await held;
    expect(limiter.idle).toBe(2);
  });
});
