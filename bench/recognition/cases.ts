import { DATE_STYLES, type GenerateOptions, type Tier } from '@app/docgen';

/** A benchmark set: the quality tier passed to the engine, the first seed, and the docgen options per document. */
export interface BenchSet {
  name: string;
  tier: Tier;
  seedBase: number;
  options: (i: number) => Partial<GenerateOptions>;
}

/** The quality tiers (seeds 10000 + 1000 × tier index + i, docgen defaults). */
export const tierSet = (tier: Tier, index: number): BenchSet => ({ name: tier, tier, seedBase: 10000 + 1000 * index, options: () => ({}) });

/**
 * Recognition-quality cases, each on clean 300 DPI pages unless said otherwise:
 * - `latin`: item names with Latin brands and model codes (docgen `latinNames`);
 * - `word-dates`: the document date printed in words, the four styles in turn ("12 марта 2026 г.", «12» …, "12" …, 12 март 2026);
 * - `multipage`: 26–45 lines over three or four sheets, continuation sheets alternately with and without a header;
 * - `pdf-text`: a chromium-printed PDF with a text layer (read without OCR);
 * - `pdf-scan`: the scan tier's pages inside a PDF without text (rendered back by pdftoppm, then OCR).
 */
export const CASES: Record<string, Omit<BenchSet, 'name'>> = {
  latin: { tier: 'scan', seedBase: 13000, options: () => ({ latinNames: true }) },
  'word-dates': { tier: 'scan', seedBase: 14000, options: (i) => ({ dateStyle: DATE_STYLES[1 + (i % 4)] }) },
  multipage: { tier: 'scan', seedBase: 15000, options: (i) => ({ lines: 26 + ((i * 7) % 20), continuation: i % 2 ? 'no-header' : 'repeat-header' }) },
  'pdf-text': { tier: 'scan', seedBase: 16000, options: (i) => ({ output: 'pdf-text', latinNames: i % 2 === 1 }) },
  'pdf-scan': { tier: 'scan', seedBase: 17000, options: () => ({ output: 'pdf-scan' }) },
};
