import iconv from 'iconv-lite';

const representable = new Map<string, boolean>();

function inCp1251(ch: string): boolean {
  let ok = representable.get(ch);
  if (ok === undefined) {
    ok = iconv.decode(iconv.encode(ch, 'win1251'), 'win1251') === ch;
    representable.set(ch, ok);
  }
  return ok;
}

/**
 * Encodes XML text to windows-1251 bytes (the encoding FNS formats require). A character windows-1251 lacks (e.g.
 * "²", "Ø") becomes a numeric character reference, so the text survives exactly instead of turning into "?".
 * Only valid in attribute values and text, which is where such characters occur in the writer's output.
 */
export function encodeCp1251(xml: string): Buffer {
  let out = '';
  for (const ch of xml) {
    out += ch.charCodeAt(0) < 0x80 || inCp1251(ch) ? ch : `&#x${ch.codePointAt(0)!.toString(16).toUpperCase()};`;
  }
  return iconv.encode(out, 'win1251');
}
