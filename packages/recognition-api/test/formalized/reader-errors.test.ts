import { readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { refusal } from './helpers.js';
import { formalizedCharset, MAX_FORMALIZED_BYTES, readFormalizedUpd } from '../../src/formalized/index.js';

const fixture = readFileSync(new URL('fixtures/upd-5.03-hand.cp1251.xml', import.meta.url));
const text = iconv.decode(fixture, 'win1251');
const cp1251 = (s: string) => iconv.encode(s, 'win1251');

const codeOf = (bytes: Buffer): string => refusal(readFormalizedUpd, bytes);

describe('readFormalizedUpd refuses bad input with a typed reason', () => {
  it('malformed XML (an unclosed element) → malformed, with the line', () => {
    expect(codeOf(cp1251(text.replace('</ТаблСчФакт>', '')))).toMatch(/^malformed: .*line \d+/);
  });

  it('a DOCTYPE with an internal entity → dtd_forbidden', () => {
    const evil = text.replace('<Файл ', '<!DOCTYPE Файл [<!ENTITY x "boom">]>\n<Файл ');
    expect(codeOf(cp1251(evil))).toMatch(/^dtd_forbidden/);
  });

  it('a lower-case doctype naming an external file → dtd_forbidden', () => {
    const evil = text.replace('<Файл ', '<!doctype Файл SYSTEM "file:///etc/passwd">\n<Файл ');
    expect(codeOf(cp1251(evil))).toMatch(/^dtd_forbidden/);
  });

  it('windows-1251 bytes declared as UTF-8 → encoding', () => {
    expect(codeOf(cp1251(text.replace('encoding="windows-1251"', 'encoding="UTF-8"')))).toMatch(/^encoding: .*UTF-8/);
  });

  it('an encoding other than windows-1251 / UTF-8 → encoding', () => {
    expect(codeOf(cp1251(text.replace('encoding="windows-1251"', 'encoding="KOI8-R"')))).toMatch(/^encoding: .*koi8-r/);
  });

  it('another КНД (the buyer title 1115132) → unknown_knd', () => {
    expect(codeOf(cp1251(text.replace('КНД="1115131"', 'КНД="1115132"')))).toMatch(/^unknown_knd: .*1115132/);
  });

  it('a file above the size bound → too_large, before any parsing', () => {
    const big = Buffer.concat([fixture, Buffer.alloc(MAX_FORMALIZED_BYTES + 1 - fixture.length, 0x20)]);
    expect(big.length).toBe(MAX_FORMALIZED_BYTES + 1);
    expect(codeOf(big)).toMatch(/^too_large/);
    // At the bound itself the same file (padded with whitespace) is read.
    expect(codeOf(big.subarray(0, MAX_FORMALIZED_BYTES))).toBe('accepted');
  });

  it('another root, version or Функция → unsupported', () => {
    expect(codeOf(Buffer.from('<?xml version="1.0"?><Invoice/>'))).toMatch(/^unsupported: the root/);
    expect(codeOf(cp1251(text.replace('ВерсФорм="5.03"', 'ВерсФорм="4.00"')))).toMatch(/^unsupported: format version/);
    expect(codeOf(cp1251(text.replace('Функция="СЧФДОП"', 'Функция="СвРК"')))).toMatch(/^unsupported: Функция/);
  });

  it('a non-numeric amount → unsupported, naming the attribute', () => {
    expect(codeOf(cp1251(text.replace('СтТовУчНал="1200.00"', 'СтТовУчНал="12O0"')))).toMatch(/СведТов\[1\]\/@СтТовУчНал/);
  });
});

describe('formalizedCharset: the charset a stored file is sent back with', () => {
  it('is its declared encoding: windows-1251 (and aliases) or utf-8, utf-8 without a declaration', () => {
    expect(formalizedCharset(fixture)).toBe('windows-1251');
    expect(formalizedCharset(Buffer.from('<?xml version="1.0" encoding="CP1251"?><Файл/>', 'latin1'))).toBe('windows-1251');
    expect(formalizedCharset(Buffer.from('<?xml version="1.0" encoding="UTF-8"?><Файл/>'))).toBe('utf-8');
    expect(formalizedCharset(Buffer.from('\ufeff<Файл/>'))).toBe('utf-8');
  });
});
