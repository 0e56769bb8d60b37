import { centerX, centerY, median, type VerticalRule, type Word } from '../extract/words.js';

/**
 * Estimates page skew in degrees (positive = lines run downhill to the right in image coordinates; rotating the
 * image by minus this angle, sharp's clockwise-positive convention, levels it)
 * from the word boxes Tesseract returns: the median slope between the centres of consecutive words of one
 * Tesseract line. Tesseract follows tilted baselines, so its lines give the tilt without a second image pass.
 * Returns 0 when fewer than 10 word pairs are available.
 */
export function estimateSkew(words: Word[]): number {
  const byLine = new Map<string, Word[]>();
  for (const w of words) if (w.conf > 40 && w.text.length > 1) byLine.set(w.line, [...(byLine.get(w.line) ?? []), w]);
  const slopes: number[] = [];
  for (const ws of byLine.values()) {
    ws.sort((a, b) => a.left - b.left);
    for (let i = 1; i < ws.length; i++) {
      const dx = centerX(ws[i]) - centerX(ws[i - 1]);
      const dh = Math.abs(ws[i].height - ws[i - 1].height);
      // Words of different heights (a capital-only word beside one with descenders) bias the centre line.
      if (dx > 2 * ws[i].height && dh < 0.25 * ws[i].height) slopes.push((ws[i].top + ws[i].height - (ws[i - 1].top + ws[i - 1].height)) / dx);
    }
  }
  if (slopes.length < 10) return 0;
  return (Math.atan(median(slopes)) * 180) / Math.PI;
}

/** Rotates word boxes by `-degrees` about (cx, cy) so lines become horizontal; sizes are kept. */
export function levelWords(words: Word[], degrees: number, cx: number, cy: number): Word[] {
  if (degrees === 0) return words;
  const a = (-degrees * Math.PI) / 180;
  const [cos, sin] = [Math.cos(a), Math.sin(a)];
  return words.map((w) => {
    const x = centerX(w) - cx;
    const y = centerY(w) - cy;
    const nx = cx + x * cos - y * sin;
    const ny = cy + x * sin + y * cos;
    return { ...w, left: nx - w.width / 2, top: ny - w.height / 2 };
  });
}

/** Levels vertical rules like {@link levelWords}: each rule is moved by the rotation of its midpoint. */
export function levelRules(rules: VerticalRule[], degrees: number, cx: number, cy: number): VerticalRule[] {
  if (degrees === 0) return rules;
  const a = (-degrees * Math.PI) / 180;
  return rules.map((r) => {
    const my = (r.top + r.bottom) / 2 - cy;
    const dx = (r.x - cx) * Math.cos(a) - my * Math.sin(a) + cx - r.x;
    const dy = (r.x - cx) * Math.sin(a) + my * Math.cos(a) + cy - (r.top + r.bottom) / 2;
    return { x: r.x + dx, top: r.top + dy, bottom: r.bottom + dy };
  });
}
