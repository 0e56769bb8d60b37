import type { VerticalRule } from '../extract/words.js';

/**
 * Removes vertical table rules (long vertical dark runs) from an 8-bit grayscale bitmap in place. Tesseract
 * reads a rule beside a value as a character ("|Кресло", "03828" for "УТ-03828"); no text stroke is as long as a
 * column rule. Horizontal rules stay: removing them measurably hurt Tesseract's line finding on the tight
 * column-number row. A run is traced over a 3-pixel band, so rules tilted by ~1.5° still count.
 */
export function removeRules(px: Uint8Array, width: number, height: number, minRun = 80, dark = 170, mask?: Uint8Array): VerticalRule[] {
  const isDark = mask ? (i: number) => mask[i] > 0 : (i: number) => px[i] < dark;
  // With a contrast mask (photos, rule-mask.ts) a run may skip a few light pixels: blur and JPEG break a thin
  // rule where it crosses a row border or a light patch, and the pieces alone are too short to count.
  const maxGap = mask ? Math.max(2, Math.round(minRun / 16)) : 0;
  // Erased pixels take the local paper tone (brightest pixel 4 px to either side across the rule), so a grey
  // photo background does not get white dashes where the rule was.
  const erase: [number, number][] = [];
  const runs: VerticalRule[] = [];
  const paper = (i: number, step: number) => Math.max(px[i - 4 * step] ?? 255, px[i + 4 * step] ?? 255);
  // Vertical: same over a 3-pixel-wide band of columns, twice as long: digits of a tight row touch both rules
  // above and below, and only real column rules run through several rows.
  // The columns are walked together, row by row, with a run open per column: walking one column top to bottom
  // strides a whole row between reads (in a CPU profile of 17 photo pages, ≈ 150 ms a page against ≈ 120 ms).
  const start = new Int32Array(width).fill(-1);
  const last = new Int32Array(width).fill(-1);
  for (let y = 0; y <= height; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const on = y < height && (isDark(i) || isDark(i - 1) || isDark(i + 1));
      if (on) {
        if (start[x] < 0) start[x] = y;
        last[x] = y;
        continue;
      }
      if (start[x] >= 0 && (y - last[x] > maxGap || y === height)) {
        const end = last[x] + 1;
        if (end - start[x] >= 2 * minRun) {
          runs.push({ x, top: start[x], bottom: end });
          for (let k = start[x]; k < end; k++) {
            const j = k * width + x;
            if (px[j] < 215) erase.push([j, paper(j, 1)]);
          }
        }
        start[x] = -1;
      }
    }
  }
  for (const [i, v] of erase) px[i] = Math.max(px[i], v);
  return mergeRules(runs);
}

/**
 * Adjacent pixel columns of one thick rule become one rule at their mean x: a run joins a rule when it lies within
 * 4 px of the rule's rightmost column so far (chained, not against the mean: a blurred photo rule 9+ columns wide
 * was split in two when its mean lagged more than 4 px behind, which doubled every column border of the table).
 */
function mergeRules(runs: VerticalRule[]): VerticalRule[] {
  const out: (VerticalRule & { n: number; last: number })[] = [];
  for (const r of runs.sort((a, b) => a.x - b.x || a.top - b.top)) {
    const m = out.find((o) => r.x - o.last <= 4 && r.top < o.bottom && r.bottom > o.top);
    if (m) {
      m.x = (m.x * m.n + r.x) / (m.n + 1);
      m.last = Math.max(m.last, r.x);
      m.n++;
      m.top = Math.min(m.top, r.top);
      m.bottom = Math.max(m.bottom, r.bottom);
    } else out.push({ ...r, n: 1, last: r.x });
  }
  return out.map(({ x, top, bottom }) => ({ x, top, bottom }));
}
