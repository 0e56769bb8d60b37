import type { AttachmentInput } from './edo.port.js';

/** File signatures (magic bytes) → the extension of the default file name; checked in order. */
const SIGNATURES: { ext: string; test: (b: Buffer) => boolean }[] = [
  { ext: 'pdf', test: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
  { ext: 'png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { ext: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { ext: 'tif', test: (b) => ['II*\0', 'MM\0*'].includes(b.subarray(0, 4).toString('latin1')) },
  { ext: 'gif', test: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  { ext: 'bmp', test: (b) => b.subarray(0, 2).toString('latin1') === 'BM' },
  { ext: 'zip', test: (b) => b.subarray(0, 4).toString('latin1') === 'PK\x03\x04' },
  { ext: 'xml', test: (b) => /^(\xef\xbb\xbf)?\s*<\?xml/.test(b.subarray(0, 64).toString('latin1')) },
];

/** The extension for content bytes: a known signature, else `txt` for UTF-8 text without NULs, else `bin`. */
export function extensionOf(content: Buffer): string {
  const hit = SIGNATURES.find((s) => s.test(content));
  if (hit) return hit.ext;
  const head = content.subarray(0, 4096);
  const text = !head.includes(0) && Buffer.from(head.toString('utf8'), 'utf8').equals(head);
  return text ? 'txt' : 'bin';
}

/** Today as `dd.MM.yyyy` in Moscow time, the zone Diadoc's document dates are read in. */
export function moscowDate(now: Date): string {
  const p = new Intl.DateTimeFormat('ru-RU', { timeZone: 'Europe/Moscow', day: '2-digit', month: '2-digit', year: 'numeric' }).formatToParts(now);
  const v = (t: string) => p.find((x) => x.type === t)!.value;
  return `${v('day')}.${v('month')}.${v('year')}`;
}

/**
 * The metadata Diadoc requires of a `Nonformalized` document that the caller may leave out (docs/edo-gateway.md,
 * "Send defaults"): `FileName` from the attachment's `FileName`, else `document.<ext>` by the content's file
 * signature; `DocumentDate` today in Moscow. Entries the caller gave are kept as given. Formalized types (UPD,
 * invoice, …) carry these in their XML, so they are left untouched.
 */
export function withDefaultMetadata(a: AttachmentInput, now: Date): AttachmentInput {
  if (a.TypeNamedId.Name !== 'Nonformalized') return a;
  const meta = [...(a.Metadata ?? [])];
  const has = (key: string) => meta.some((m) => m.Key === key && m.Value !== '');
  if (!has('FileName'))
    meta.push({ Key: 'FileName', Value: a.FileName ?? `document.${extensionOf(Buffer.from(a.SignedContent.Content, 'base64'))}` });
  if (!has('DocumentDate')) meta.push({ Key: 'DocumentDate', Value: moscowDate(now) });
  return { ...a, Metadata: meta };
}
