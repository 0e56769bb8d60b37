import { makeTruth } from './document-data.js';
import { torg12Html } from './html/torg12.js';
import { updHtml } from './html/upd.js';
import { Rng } from './random.js';
import { renderPages } from './render.js';
import { applyTier, TIER_DPI } from './tiers.js';
import type { DocType, Tier, TruthData } from './truth.types.js';

export type { DocType, Tier, TruthData, TruthItem, TruthParty } from './truth.types.js';
export { closeRenderer } from './render.js';
export { legalInn, personInn } from './companies.js';
export { UPD_ROWS } from './html/upd.js';
export { TORG12_ROWS } from './html/torg12.js';
export { photoOnTable, type PhotoGeometry, type Quad } from './photo-table.js';
export { Rng } from './random.js';

/** Input of {@link generateDocument}. */
export interface GenerateOptions {
  /** Same seed (and type/tier/lines) → same truth and same images. */
  seed: number;
  type: DocType;
  tier: Tier;
  /** Number of item lines (1–25 sensible); default random 1–25, long tables span several sheets. */
  lines?: number;
}

/** A generated document: page images in order, the exact data printed on them, and its type. */
export interface GeneratedDocument {
  /** PNG (scan, screenshot) or JPEG (photo) page images. */
  images: Buffer[];
  truth: TruthData;
  documentType: DocType;
  /** The page HTML, for debugging layouts. */
  html: string;
}

/** Just the ground truth and HTML, without rendering (fast; no browser). */
export function generateTruth(opts: GenerateOptions): { truth: TruthData; html: string } {
  const rng = new Rng(opts.seed);
  const truth = makeTruth(rng, opts.type, opts.lines);
  // Invoices have no product-code column (А exists only on the UPD).
  if (opts.type === 'invoice') truth.items.forEach((it) => (it.product_code = null));
  const html = opts.type === 'torg12' ? torg12Html(truth) : updHtml(truth, opts.type);
  return { truth, html };
}

/**
 * Generates one synthetic UPD / TORG-12 / invoice with ground truth (Spec: Recognised data), rendered with
 * Debian chromium through playwright-core and degraded per quality tier with sharp. Reuses one browser per
 * process; call `closeRenderer()` when done.
 */
export async function generateDocument(opts: GenerateOptions): Promise<GeneratedDocument> {
  const { truth, html } = generateTruth(opts);
  const pages = await renderPages(html, TIER_DPI[opts.tier]);
  const noise = new Rng(opts.seed ^ 0x5bd1e995);
  const images: Buffer[] = [];
  for (const p of pages) images.push(await applyTier(p, opts.tier, noise));
  return { images, truth, documentType: opts.type, html };
}
