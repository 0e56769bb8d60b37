import { parseOperatorJson } from '../operator-json.js';

/** .NET ticks of 1970-01-01T00:00:00Z (ticks are 100 ns since 0001-01-01 UTC). */
export const UNIX_EPOCH_TICKS = 621355968000000000n;

/**
 * Ticks → ISO 8601 with all 7 fractional digits, as Diadoc renders its own `DateTime` fields:
 * 638585445988979088 → `2024-08-06T12:36:38.8979088Z`. Accepts a bigint or a (safe) number.
 */
export function ticksToIso(ticks: bigint | number): string {
  const since = BigInt(ticks) - UNIX_EPOCH_TICKS;
  const ms = since / 10000n - (since % 10000n < 0n ? 1n : 0n);
  const sub = Number(since - ms * 10000n);
  const base = new Date(Number(ms)).toISOString().slice(0, 19);
  return `${base}.${String(Number(((ms % 1000n) + 1000n) % 1000n) * 10000 + sub).padStart(7, '0')}Z`;
}

/** A `Date` → ticks (millisecond precision), for Diadoc's `timestampFromTicks`/`timestampToTicks` filters. */
export function isoToTicks(date: Date): bigint {
  return UNIX_EPOCH_TICKS + BigInt(date.getTime()) * 10000n;
}

/** Parses a Diadoc JSON body without losing the last digits of 64-bit ticks. */
export const parseDiadocJson = parseOperatorJson;

/**
 * Adds an ISO twin to every `…TimestampTicks` field that has none: `SendTimestampTicks` → `SendTimestamp`,
 * `TimestampTicks` → `Timestamp` (our additive convenience; Diadoc itself adds such twins on some objects, e.g.
 * `LastEventTimestamp`, and those are left as they are). Walks objects and arrays in place; returns the input.
 */
export function withIsoTimestamps<T>(value: T): T {
  if (Array.isArray(value)) value.forEach(withIsoTimestamps);
  else if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(obj)) {
      if (k.endsWith('TimestampTicks') && (typeof v === 'bigint' || typeof v === 'number') && v > 0) {
        const twin = k.slice(0, -'Ticks'.length);
        if (!(twin in obj)) obj[twin] = ticksToIso(v);
      } else withIsoTimestamps(v);
    }
  }
  return value;
}
