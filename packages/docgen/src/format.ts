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

/** Date "DD.MM.YYYY" → "«12» марта 2026 г." as forms print it under signatures. */
export function longDate(date: string): string {
  const months = ['января', 'февраля', 'марта', 'апреля', 'мая', 'июня', 'июля', 'августа', 'сентября', 'октября', 'ноября', 'декабря'];
  const [d, m, y] = date.split('.');
  return `«${d}» ${months[Number(m) - 1]} ${y} г.`;
}

/** Splits items into pages: `first` rows on page 1, `rest` on each following page. */
export function paginate<T>(items: T[], first: number, rest: number): T[][] {
  const pages: T[][] = [items.slice(0, first)];
  for (let i = first; i < items.length; i += rest) pages.push(items.slice(i, i + rest));
  return pages;
}
