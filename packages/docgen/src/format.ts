/** Russian number formatting as accounting software prints it: groups of three split by a space, decimal comma. */

function group(intPart: string, sep: string): string {
  return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
}

/** Roubles with kopecks: 1234.5 → "1 234,50". `sep` is the group separator (space or no-break space). */
export function money(x: number, sep = ' '): string {
  const [i, f] = Math.abs(x).toFixed(2).split('.');
  return `${x < 0 ? '-' : ''}${group(i, sep)},${f}`;
}

/** Quantity: whole numbers plain ("12", "1 200"), fractional with three decimals ("2,350"). */
export function quantity(x: number, sep = ' '): string {
  if (Number.isInteger(x)) return group(String(x), sep);
  const [i, f] = x.toFixed(3).split('.');
  return `${group(i, sep)},${f}`;
}

/** HTML text escaping for values placed into the page templates. */
export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const GENITIVE = ['января', 'февраля', 'марта', 'апреля', 'мая', 'июня', 'июля', 'августа', 'сентября', 'октября', 'ноября', 'декабря'];
const NOMINATIVE = ['январь', 'февраль', 'март', 'апрель', 'май', 'июнь', 'июль', 'август', 'сентябрь', 'октябрь', 'ноябрь', 'декабрь'];

/** Date "DD.MM.YYYY" → "«12» марта 2026 г." as forms print it under signatures. */
export function longDate(date: string): string {
  return printDate(date, 'guillemets');
}

/**
 * How a document prints its date: `numeric` "12.03.2026" (1C's default), in words `words` "12 марта 2026 г.",
 * `guillemets` "«12» марта 2026 г." (forms filled by hand or by templates), `quotes` "\"12\" марта 2026",
 * `nominative` "12 март 2026" (templates that forget the genitive).
 */
export type DateStyle = 'numeric' | 'words' | 'guillemets' | 'quotes' | 'nominative';
export const DATE_STYLES: readonly DateStyle[] = ['numeric', 'words', 'guillemets', 'quotes', 'nominative'];

/** Prints a "DD.MM.YYYY" date in one of the {@link DateStyle}s. */
export function printDate(date: string, style: DateStyle): string {
  const [d, m, y] = date.split('.');
  const month = Number(m) - 1;
  const day = String(Number(d));
  switch (style) {
    case 'numeric':
      return date;
    case 'words':
      return `${day} ${GENITIVE[month]} ${y} г.`;
    case 'guillemets':
      return `«${d}» ${GENITIVE[month]} ${y} г.`;
    case 'quotes':
      return `"${d}" ${GENITIVE[month]} ${y}`;
    case 'nominative':
      return `${day} ${NOMINATIVE[month]} ${y}`;
  }
}

/** Splits items into pages: `first` rows on page 1, `rest` on each following page. */
export function paginate<T>(items: T[], first: number, rest: number): T[][] {
  const pages: T[][] = [items.slice(0, first)];
  for (let i = first; i < items.length; i += rest) pages.push(items.slice(i, i + rest));
  return pages;
}
