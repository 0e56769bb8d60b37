import { PHOTO_BLUR_SIGMA } from './deblur.js';
import type { GrayImage } from './page-quad.js';

/** Length of the stretch of a rule whose cross-profile is averaged into one sample, px. */
const BAND = 160;
/** Half-width of the window a rule's cross-profile is taken over, px at 300 DPI: a blurred rule fits inside. */
const HALF = 6;
/**
 * How much darker than the paper beside it a band's cross-profile must be at its peak for a rule, as a share of the
 * paper's darkness range (its grey): a printed line darkens the whole band, even blurred; a text line, with the
 * paper between its letters and words, averages far less, and so does a stamp's or a signature's faded stroke.
 */
const MIN_RULE_CONTRAST = 0.25;
/** Samples below this many give no estimate: a page without a ruled table says nothing of its blur. */
const MIN_SAMPLES = 40;
/**
 * The share of the sorted samples taken as the page's spread: the low quarter are the thin rules whose profile is
 * the blur and little else; thicker outer borders and text that happens to line up sit above it.
 */
const QUANTILE = 0.25;

/** Second moments of a page's blur, px² (300 DPI page pixels): `x` across vertical rules, `y` across horizontal ones. */
export interface RuleSpread {
  x: number;
  y: number;
}

/**
 * The spread of a ruled form's printed lines, as a measure of how blurred the page is: a thin printed rule is a
 * line, so its averaged cross-profile is the blur's own profile (plus the rule's width), and its variance the
 * blur's variance along that axis. The page is cut into {@link BAND}-px stretches along each axis; in each the
 * cross-profile of darkness is averaged, every local maximum {@link MIN_RULE_CONTRAST} darker than the paper is a
 * rule, and the variance of its profile (±{@link HALF} px, over the paper level of its lighter side) is one sample.
 * The {@link QUANTILE} of the samples per axis is the estimate. A phone's motion blur widens one axis more than the
 * other; defocus widens both. Null when either axis has fewer than {@link MIN_SAMPLES} samples (no ruled table).
 * Pure; expects a flattened page, rules within a pixel or two of the axes over a band.
 */
export function ruleSpread(img: GrayImage): RuleSpread | null {
  const y = axisSamples(img, 'y');
  const x = axisSamples(img, 'x');
  if (x.length < MIN_SAMPLES || y.length < MIN_SAMPLES) return null;
  return { x: quantile(x, QUANTILE), y: quantile(y, QUANTILE) };
}

/** Profile variances of the rules across `axis` ('y': horizontal rules, profiles along y). */
function axisSamples(img: GrayImage, axis: 'x' | 'y'): number[] {
  const { data, width, height } = img;
  const along = axis === 'y' ? width : height;
  const across = axis === 'y' ? height : width;
  const samples: number[] = [];
  const profile = new Float64Array(across);
  // The page's outer 100 px hold the warp's white border and the sheet's edge, no rules worth measuring.
  for (let b0 = 100; b0 + BAND < along - 100; b0 += BAND) {
    profile.fill(0);
    if (axis === 'y') {
      for (let a = 0; a < across; a++) {
        let s = 0;
        const row = a * width;
        for (let t = b0; t < b0 + BAND; t++) s += 255 - data[row + t];
        profile[a] = s / BAND;
      }
    } else {
      for (let t = b0; t < b0 + BAND; t++) {
        const row = t * width;
        for (let a = 0; a < across; a++) profile[a] += 255 - data[row + a];
      }
      for (let a = 0; a < across; a++) profile[a] /= BAND;
    }
    for (let a = HALF + 4; a < across - HALF - 4; a++) {
      if (!isPeak(profile, a)) continue;
      const sample = peakVariance(profile, a);
      if (sample !== null) samples.push(sample);
    }
  }
  return samples;
}

/** The strict maximum of its ±{@link HALF} window (the first of equal values). */
function isPeak(p: Float64Array, a: number): boolean {
  for (let d = -HALF; d <= HALF; d++) if (d !== 0 && (p[a + d] > p[a] || (p[a + d] === p[a] && d < 0))) return false;
  return true;
}

/** Variance (px²) of the peak's profile over the local paper level; null when it is no rule's ({@link MIN_RULE_CONTRAST}). */
function peakVariance(p: Float64Array, a: number): number | null {
  // The paper level: the lightest of the four pixels just outside the window on either side.
  let base = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 4; i++) base = Math.min(base, p[a - HALF - 3 + i], p[a + HALF + i]);
  if (p[a] - base < MIN_RULE_CONTRAST * (255 - base)) return null;
  let m0 = 0;
  let m1 = 0;
  let m2 = 0;
  for (let d = -HALF; d <= HALF; d++) {
    const w = Math.max(0, p[a + d] - base);
    m0 += w;
    m1 += w * d;
    m2 += w * d * d;
  }
  if (m0 <= 0) return null;
  const mean = m1 / m0;
  return m2 / m0 - mean * mean;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(q * (sorted.length - 1))];
}

/**
 * The rule spread (px², mean of the two axes) of a typical flattened phone photo, the one {@link PHOTO_BLUR_SIGMA}
 * was tuned on: the development photos' spreads run 4.0–7.6 with a median near 6.
 */
export const TYPICAL_SPREAD = 6;
/**
 * Deconvolution σ (px) added per px² of rule spread above {@link TYPICAL_SPREAD}. On the development photos 0.35
 * and 0.5 read alike and 0.25 worse (docs/recognition-photo.md "Session 2026-11-29 (4)"); the smaller of the two
 * good slopes stays nearer the tuned σ where the measure is noisy.
 */
export const SIGMA_PER_SPREAD = 0.35;
/** The most a page is deconvolved for, px: σ 2.0 for every photo rang on 7-pt text (upd-04 read worse). */
export const MAX_PHOTO_SIGMA = 2;

/**
 * The Gaussian σ (px at 300 DPI) a flattened photo's page is deconvolved for (deblur.ts), from its rule spread
 * ({@link ruleSpread}): {@link PHOTO_BLUR_SIGMA} for a typical or sharper photo, more for a page whose rules show
 * more blur (a shaken hand's motion blur, a lens focused off the sheet), up to {@link MAX_PHOTO_SIGMA}; rounded to
 * 0.05 (so a process computes few Wiener kernels). Never less than the tuned σ: a σ of 1.25 for every photo read
 * worse (180 fields wrong against 160), and so did lowering it on the pages measured sharp (140 against 140, three
 * names fewer). The mean of the two axes: a kernel stretched along the motion's axis read worse than a round one.
 * A page without a ruled table (`spread` null) gets {@link PHOTO_BLUR_SIGMA}. Pure.
 */
export function photoBlurSigma(spread: RuleSpread | null): number {
  if (!spread) return PHOTO_BLUR_SIGMA;
  const sigma = PHOTO_BLUR_SIGMA + ((spread.x + spread.y) / 2 - TYPICAL_SPREAD) * SIGMA_PER_SPREAD;
  return Math.round(20 * Math.min(MAX_PHOTO_SIGMA, Math.max(PHOTO_BLUR_SIGMA, sigma))) / 20;
}
