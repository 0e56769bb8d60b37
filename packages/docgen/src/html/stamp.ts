import { esc } from '../format.js';
import type { TruthParty } from '../truth.types.js';

/**
 * A blue round seal of the seller (docs/decisions.md "Hard tiers in docgen": stamps over numbers), placed over the last rows of the table — the
 * totals — and the signature line, as a stamp lands on a real sheet. Semi-transparent ink, so the figures stay
 * printed under it; rotation and position come from the INN (no random draw, so a seed's other values do not move).
 * An SVG inside a zero-height box: it covers the table without moving anything on the page.
 */
export function stampHtml(seller: TruthParty): string {
  const d = seller.inn!;
  const angle = (Number(d.slice(-2)) % 40) - 20;
  const left = 560 + (Number(d.slice(-4, -2)) % 30) * 10;
  const name = esc(seller.name!.replace(/^(ООО|АО|ПАО|ИП)\s*/, '').replace(/[«»"]/g, ''));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160">` +
    `<g fill="none" stroke="#2440b3" stroke-opacity="0.7"><circle cx="80" cy="80" r="76" stroke-width="3"/><circle cx="80" cy="80" r="56" stroke-width="1.5"/></g>` +
    `<defs><path id="ring" d="M80,80 m-66,0 a66,66 0 1,1 132,0 a66,66 0 1,1 -132,0"/></defs>` +
    `<text font-family="Liberation Sans, Arial" font-size="11" fill="#2440b3" fill-opacity="0.7"><textPath href="#ring">${name} * ИНН ${d} *</textPath></text>` +
    `<text x="80" y="78" text-anchor="middle" font-family="Liberation Sans, Arial" font-size="12" font-weight="bold" fill="#2440b3" fill-opacity="0.7">ДЛЯ</text>` +
    `<text x="80" y="94" text-anchor="middle" font-family="Liberation Sans, Arial" font-size="12" font-weight="bold" fill="#2440b3" fill-opacity="0.7">ДОКУМЕНТОВ</text></svg>`;
  return `<div style="position:relative;height:0"><div style="position:absolute;left:${left}px;top:-120px;transform:rotate(${angle}deg)">${svg}</div></div>`;
}
