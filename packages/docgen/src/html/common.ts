import type { PartyStyle } from './party-1c.js';
/**
 * Shared page frame: A4 landscape sheets (297×210 mm = 1123×794 CSS px) in the fonts accounting software prints
 * with (Liberation Sans is metric-compatible with Arial), 1 px black rules as on the official forms.
 */
export const PAGE_CSS = `
* { box-sizing: border-box; }
body { margin: 0; background: #fff; font-family: 'Liberation Sans', 'DejaVu Sans', Arial, sans-serif; color: #000; }
.page { width: 1123px; height: 794px; padding: 28px 34px; position: relative; overflow: hidden; background: #fff;
  font-size: 10.5px; line-height: 1.25; }
table { border-collapse: collapse; }
.grid { width: 100%; table-layout: fixed; }
.grid th, .grid td { border: 1px solid #000; padding: 2px 3px; vertical-align: top; }
.grid th { font-weight: normal; font-size: 9px; text-align: center; vertical-align: middle; }
.grid tr.num td { text-align: center; font-size: 9.5px; padding: 1px; }
.grid td.r { text-align: right; white-space: nowrap; }
.grid td.c { text-align: center; }
.grid tr.total td { font-weight: bold; }
.kv td { padding: 1px 4px; vertical-align: bottom; }
.kv td.label { white-space: nowrap; }
.kv td.val { border-bottom: 1px solid #000; width: 100%; }
.kv td.ref { font-size: 9px; white-space: nowrap; }
.small { font-size: 8.5px; }
.title { font-size: 15px; font-weight: bold; }
.sign td { padding: 10px 6px 0 6px; font-size: 9.5px; vertical-align: bottom; }
.sign td.line { border-bottom: 1px solid #000; width: 120px; }
.pageno { position: absolute; right: 34px; bottom: 12px; font-size: 9px; }
`;

/** Printing choices of one document: the date as printed (numeric or in words) and how long tables continue. */
export interface HtmlOptions {
  date: string;
  /** `repeat-header`: each continuation sheet repeats the caption and table header; `no-header`: rows only. */
  continuation: 'repeat-header' | 'no-header';
  /** TORG-12 party lines: `short` (default) or as 1C prints them with bank details (party-1c.ts). */
  partyStyle?: PartyStyle;
  /** A blue seller's seal over the totals and signatures of the last sheet (stamp.ts). */
  stamps?: boolean;
}

/** Wraps page bodies into one HTML document; each `<section class="page">` becomes one image. */
export function htmlDocument(pages: string[]): string {
  const body = pages.map((p) => `<section class="page">${p}</section>`).join('\n');
  return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><style>${PAGE_CSS}</style></head><body>${body}</body></html>`;
}

/** One "label: value (ref)" row of a header block. */
export function kvRow(label: string, value: string, ref = ''): string {
  return `<tr><td class="label">${label}</td><td class="val">${value}</td><td class="ref">${ref}</td></tr>`;
}
