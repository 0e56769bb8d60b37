import { makeTruth } from './document-data.js';
import { torg12Html } from './html/torg12.js';
import type { PartyStyle } from './html/party-1c.js';
import { updHtml } from './html/upd.js';
import { Rng } from './random.js';
import { printDate, type DateStyle } from './format.js';
import { imagesToPdf } from './pdf.js';
import { renderPages, renderPdf } from './render.js';
import { applyTier, TIER_DPI } from './tiers.js';
import type { DocType, Tier, TruthData } from './truth.types.js';

export type { DocType, Tier, TruthData, TruthItem, TruthParty } from './truth.types.js';
export { closeRenderer } from './render.js';
export { DATE_STYLES, printDate, type DateStyle } from './format.js';
export { LATIN_PRODUCTS, REAL_PRODUCTS } from './items.js';
export { imagesToPdf } from './pdf.js';
export { legalInn, personInn } from './companies.js';
export { UPD_ROWS } from './html/upd.js';
export { TORG12_ROWS } from './html/torg12.js';
export { bankDetails, partyLine, type PartyStyle } from './html/party-1c.js';
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
  /** How the document date is printed (default `numeric`); the truth stays DD.MM.YYYY. */
  dateStyle?: DateStyle;
  /** Item names from the catalogue with Latin brands and model codes ({@link LATIN_PRODUCTS}). */
  latinNames?: boolean;
  /** Continuation sheets of long tables: `repeat-header` (default) or `no-header` (rows only). */
  continuation?: 'repeat-header' | 'no-header';
  /**
   * `images` (default): one image per page. `pdf-text`: a single PDF printed by chromium, with a text layer (the
   * tier is ignored). `pdf-scan`: the tier's page images placed in a PDF without text (a scanner's PDF).
   */
  output?: 'images' | 'pdf-text' | 'pdf-scan';
  /** TORG-12 party lines: `short` (default), `1c-bank` (1C with phone and bank details), `inn-kpp-pair` ("ИНН/КПП x/y"). */
  partyStyle?: PartyStyle;
  /** Item names from the real-catalogue list (Latin codes, `х` sizes, °C, м², Ø; {@link REAL_PRODUCTS}). */
  realNames?: boolean;
  /** Prices include VAT, as many 1C databases keep them: the printed price without VAT is rounded (docs/decisions.md "Hard tiers in docgen"). */
  pricesIncludeVat?: boolean;
  /** A blue seller's seal over the totals and signatures (docs/decisions.md "Hard tiers in docgen": stamps over numbers); truth unchanged. */
  stamps?: boolean;
}

/** A generated document: page images in order, the exact data printed on them, and its type. */
export interface GeneratedDocument {
  /** PNG (scan, screenshot) or JPEG (photo) page images; with `output: 'pdf-*'` a single PDF of all pages. */
  images: Buffer[];
  /** Number of pages (also for a PDF output). */
  pages: number;
  truth: TruthData;
  documentType: DocType;
  /** The page HTML, for debugging layouts. */
  html: string;
}

/** Just the ground truth and HTML, without rendering (fast; no browser). */
export function generateTruth(opts: GenerateOptions): { truth: TruthData; html: string } {
  const rng = new Rng(opts.seed);
  const truth = makeTruth(rng, opts.type, opts.lines, opts.latinNames, { realNames: opts.realNames, pricesIncludeVat: opts.pricesIncludeVat });
  // Invoices have no product-code column (А exists only on the UPD).
  if (opts.type === 'invoice') for (const it of truth.items) it.product_code = null;
  const o = {
    date: printDate(truth.document.date!, opts.dateStyle ?? 'numeric'),
    continuation: opts.continuation ?? 'repeat-header',
    partyStyle: opts.partyStyle ?? 'short',
    stamps: opts.stamps ?? false,
  } as const;
  const html = opts.type === 'torg12' ? torg12Html(truth, o) : updHtml(truth, opts.type, o);
  return { truth, html };
}

/**
 * Generates one synthetic UPD / TORG-12 / invoice with ground truth (Spec: Recognised data), rendered with
 * Debian chromium through playwright-core and degraded per quality tier with sharp. Reuses one browser per
 * process; call `closeRenderer()` when done.
 */
export async function generateDocument(opts: GenerateOptions): Promise<GeneratedDocument> {
  const { truth, html } = generateTruth(opts);
  if (opts.output === 'pdf-text') {
    const pdf = await renderPdf(html);
    return { images: [pdf], pages: (html.match(/<section class="page">/g) ?? []).length, truth, documentType: opts.type, html };
  }
  const pages = await renderPages(html, TIER_DPI[opts.tier]);
  const noise = new Rng(opts.seed ^ 0x5bd1e995);
  const images: Buffer[] = [];
  for (const p of pages) images.push(await applyTier(p, opts.tier, noise));
  if (opts.output === 'pdf-scan') return { images: [await imagesToPdf(images)], pages: images.length, truth, documentType: opts.type, html };
  return { images, pages: images.length, truth, documentType: opts.type, html };
}
