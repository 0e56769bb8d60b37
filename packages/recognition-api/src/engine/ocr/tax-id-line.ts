import sharp from 'sharp';
import { splitInnKpp, stripRef, taxDigits, taxIdRole } from '../extract/header.js';
import { centerY, right, type Word } from '../extract/words.js';
import { innChecksumOk, innHasValidLength, kppFormatOk } from '../validate/tax-ids.js';
import type { PreparedPage } from './preprocess.js';
import { runTesseract, type TesseractCall } from './tesseract.js';
import { parseTsv } from './tsv.js';

/** Either half of the "ИНН/КПП" label, as photos garble it ("и ННКПП", "ИНН/КП"). */
const LABEL = /НН|КПП/i;
/** Page segmentation modes tried on the crop, in turn, until one validates: a single text line, then a block. */
const MODES = ['7', '6'] as const;
/** Scale of the crop: Tesseract reads an isolated line of ~25 px capitals better enlarged, with room around it. */
const SCALE = 2;
const MARGIN = 40;

/** True when an "inn/kpp" text holds a tax id pair that passes its checks (INN check digits, KPP format; an individual's 12-digit INN has no KPP). */
export function taxIdPairValid(text: string): boolean {
  const [innText, kppText] = splitInnKpp(text);
  const inn = innText ? taxDigits(innText) : null;
  if (!inn || !innHasValidLength(inn) || !innChecksumOk(inn)) return false;
  const kpp = kppText ? taxDigits(kppText) : null;
  return kpp ? kppFormatOk(kpp) : inn.length === 12 && (kppText ?? '').trim() === '';
}

/** The value text of a tax-id line as header-upd.ts reads it: the words after the role word, field references stripped. */
const valueText = (ws: Word[]): string =>
  stripRef(ws)
    .map((w) => w.text)
    .join('');

/**
 * Reads a region of the page again: cropped, enlarged {@link SCALE}×, read with `--psm 7`, then `--psm 6`, until
 * `accept` takes the words; they come back in page px (their lines keyed `key`), or null when no read was accepted.
 */
async function readBox(
  page: Pick<PreparedPage, 'png'>,
  box: { left: number; top: number; width: number; height: number },
  call: TesseractCall,
  key: string,
  accept: (words: Word[]) => boolean,
): Promise<Word[] | null> {
  const crop = await sharp(page.png)
    .extract(box)
    .resize({ width: box.width * SCALE })
    .extend({ top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN, background: '#ffffff' })
    .png()
    .toBuffer();
  for (const psm of MODES) {
    const found = parseTsv(await runTesseract(crop, ['-l', 'rus', '--psm', psm, '--dpi', '300', 'tsv'], call)).filter(
      (w) => w.text.trim() !== '' && !/^[:;.,|]+$/.test(w.text),
    );
    if (!accept(found)) continue;
    return found.map((w) => ({
      ...w,
      left: box.left + (w.left - MARGIN) / SCALE,
      top: box.top + (w.top - MARGIN) / SCALE,
      width: w.width / SCALE,
      height: w.height / SCALE,
      line: `${key}.${w.line}`,
    }));
  }
  return null;
}

/** Role words ("продавца", "покупателя") with the "ИНН/КПП" label just left of them: the tax-id lines of a page. */
const roleWords = (words: Word[]): Word[] =>
  words.filter(
    (w) =>
      taxIdRole(w.text) != null &&
      words.some(
        (l) =>
          l !== w &&
          LABEL.test(l.text) &&
          right(l) <= w.left + w.height &&
          w.left - right(l) < 3 * w.height &&
          Math.abs(centerY(l) - centerY(w)) < w.height,
      ),
  );

/**
 * Phone photos sometimes lose the value of a UPD's "ИНН/КПП продавца: 6164731610/616401001" line whole: the
 * page's Tesseract layout returns a lone "4" for it although the digits are sharp (docgen photo-table seeds
 * 13003, 13009). For each tax-id line whose value fails its checks, the value's region — from the label to the
 * form's field reference "(2б)" or the page edge — is cropped, enlarged and read again as a single line
 * (`--psm 7`, then `--psm 6`); the re-read replaces the line's value words only when it validates (INN check
 * digits, KPP format), so a wrong first read is never swapped for another wrong one. At most two lines per page,
 * two reads each. Coordinates stay in page pixels, like {@link rereadNumberBox}.
 */
export async function rereadTaxIdLines(words: Word[], page: Pick<PreparedPage, 'png' | 'width' | 'height'>, call: TesseractCall): Promise<Word[]> {
  let out = words;
  const roles = roleWords(words);
  for (const role of roles.slice(0, 2)) {
    const h = role.height;
    const band = (w: Word) => Math.abs(centerY(w) - centerY(role)) < h;
    const after = out.filter((w) => band(w) && w.left > role.left + role.width / 2).sort((a, b) => a.left - b.left);
    // The value ends before the form's own field reference, "(2б)" / "(6б)", read in the right margin.
    const ref = after.find((w) => /^\(.{1,3}\)$/.test(w.text) && w.left - right(role) > 10 * h);
    const end = ref ? ref.left - h / 2 : page.width;
    const value = after.filter((w) => w.left < end && !/^[:;.,]+$/.test(w.text));
    if (taxIdPairValid(valueText(value))) continue;
    const box = {
      left: Math.round(right(role) + h / 4),
      top: Math.max(0, Math.round(role.top - h / 2)),
      width: 0,
      height: Math.round(2 * h),
    };
    box.width = Math.round(Math.min(end, page.width) - box.left);
    box.height = Math.min(box.height, page.height - box.top);
    if (box.width < 8 * h || box.height < h) continue;
    const found = await readBox(page, box, call, 'taxid', (ws) => taxIdPairValid(valueText(ws)));
    if (!found) continue;
    const old = new Set(value);
    out = [...out.filter((w) => !old.has(w)), ...found];
  }
  return out;
}

/** Caption words of the party lines (2) and (6) on a UPD or an invoice. */
const PARTY_CAPTION: Record<'seller' | 'buyer', RegExp> = { seller: /^Продав/i, buyer: /^Покупат/i };

/**
 * A UPD's or invoice's tax-id line (2б) or (6б) that the page's Tesseract layout skipped entirely (a photo: the
 * lines (2а) and (3) read, nothing between them): for a party whose role word ("продавца" / "покупателя") is nowhere
 * on the page, the band between its address line (the first "Адрес" under the party's caption) and the next line
 * read is cropped across the page, enlarged and read as one line (`--psm 7`, then `--psm 6`). Its words are added
 * only when they hold the party's role word and a tax-id pair that validates (INN check digits, KPP format), so a
 * band with anything else in it changes nothing. At most one band per party, two reads each. Page px in and out.
 */
export async function rereadMissingTaxIdLines(
  words: Word[],
  page: Pick<PreparedPage, 'png' | 'width' | 'height'>,
  call: TesseractCall,
): Promise<Word[]> {
  let out = words;
  for (const role of ['seller', 'buyer'] as const) {
    if (roleWords(out).some((w) => taxIdRole(w.text) === role)) continue;
    const caption = out.find((w) => PARTY_CAPTION[role].test(w.text));
    if (!caption) continue;
    const h = caption.height;
    const address = out
      .filter((w) => /^Адр/i.test(w.text) && w.top > caption.top && w.top - caption.top < 4 * h && Math.abs(w.left - caption.left) < 2 * h)
      .sort((a, b) => a.top - b.top)[0];
    if (!address) continue;
    const bottomOf = (w: Word) => w.top + w.height;
    const line = out.filter((w) => Math.abs(centerY(w) - centerY(address)) < h / 2);
    const top = Math.max(...line.map(bottomOf));
    const below = out.filter((w) => w.top > top + h / 4).map((w) => w.top);
    if (below.length === 0) continue;
    const bottom = Math.min(...below);
    // A line fits between them only when the gap is most of a text line high.
    if (bottom - top < 0.7 * h) continue;
    const box = { left: Math.max(0, Math.round(caption.left - h)), top: Math.round(top), width: 0, height: Math.round(bottom - top) };
    box.width = page.width - box.left;
    box.height = Math.min(box.height, page.height - box.top);
    if (box.height < h / 2) continue;
    const found = await readBox(page, box, call, 'taxid-band', (ws) => {
      const at = ws.findIndex((w) => taxIdRole(w.text) === role);
      return at >= 0 && taxIdPairValid(valueText(ws.slice(at + 1)));
    });
    if (found) out = [...out, ...found];
  }
  return out;
}
