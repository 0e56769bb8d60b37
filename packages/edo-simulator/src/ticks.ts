/**
 * .NET ticks (100 ns since 0001-01-01T00:00:00Z), the unit of every `*Ticks` field in Diadoc's JSON.
 * Kept as bigint: real values (~6.4e17) are beyond Number.MAX_SAFE_INTEGER, and Diadoc sends all 7 digits.
 */
export const UNIX_EPOCH_TICKS = 621355968000000000n;

/** Ticks of an instant plus `subMs` extra ticks (0–9999) below the millisecond. */
export function ticksOf(date: Date, subMs = 0): bigint {
  return UNIX_EPOCH_TICKS + BigInt(date.getTime()) * 10000n + BigInt(subMs);
}

/** The ISO form Diadoc renders next to ticks: 7 fractional digits and `Z`, e.g. `2024-08-06T12:36:38.8979088Z`. */
export function ticksToIso(ticks: bigint): string {
  const sinceEpoch = ticks - UNIX_EPOCH_TICKS;
  const ms = sinceEpoch / 10000n;
  const rest = Number(sinceEpoch % 10000n);
  const base = new Date(Number(ms)).toISOString().slice(0, 19);
  const frac = String(Number(ms % 1000n) * 10000 + rest).padStart(7, '0');
  return `${base}.${frac}Z`;
}

/** `dd.MM.yyyy` of an instant (UTC). */
export function ddmmyyyy(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(date.getUTCDate())}.${p(date.getUTCMonth() + 1)}.${date.getUTCFullYear()}`;
}

/** Parses `dd.MM.yyyy` into a UTC midnight, or null when the text is not a real calendar date. */
export function parseDdmmyyyy(s: string): Date | null {
  const m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(s);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1])));
  return d.getUTCDate() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 ? d : null;
}
