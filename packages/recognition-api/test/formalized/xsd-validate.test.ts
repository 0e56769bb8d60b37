import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadRecognitionConfig } from '../../src/config.js';
import { FormalizedXmlError, parseXmllintErrors, validateAgainstXsd } from '../../src/formalized/index.js';

// The validator's mechanics against a small schema written for these tests (fixtures/mini.xsd), not the official
// FNS one: that schema is not in the repository, and the checks needing it are in official-schema.xsd.test.ts.
const MINI = fileURLToPath(new URL('fixtures/mini.xsd', import.meta.url));

function file(lines: string[], encoding: 'windows-1251' | 'UTF-8' = 'windows-1251'): Buffer {
  const text = [`<?xml version="1.0" encoding="${encoding}"?>`, ...lines, ''].join('\n');
  return encoding === 'UTF-8' ? Buffer.from(text, 'utf8') : iconv.encode(text, 'win1251');
}

const LINES = [
  '<Файл Ид="Ф-1">',
  '  <Документ Код="1115131" Дата="15.03.2026">',
  '    <Строка Ном="1" Наим="Плитка керамическая" Ставка="22%"/>',
  '    <Строка Ном="2" Наим="Услуги доставки" Ставка="без НДС"/>',
  '  </Документ>',
  '</Файл>',
];
const valid = file(LINES);
const edit = (from: string, to: string) => file(LINES.map((l) => l.replace(from, to)));

async function failure(xml: Buffer, xsd: string | undefined, timeoutMs?: number): Promise<FormalizedXmlError> {
  const err = await validateAgainstXsd(xml, xsd, timeoutMs).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FormalizedXmlError);
  return err as FormalizedXmlError;
}

describe('validateAgainstXsd (xmllint)', () => {
  it('accepts a valid file, windows-1251 or UTF-8', async () => {
    expect(valid.includes(Buffer.from('Файл', 'utf8'))).toBe(false);
    await expect(validateAgainstXsd(valid, MINI)).resolves.toBeUndefined();
    await expect(validateAgainstXsd(file(LINES, 'UTF-8'), MINI)).resolves.toBeUndefined();
  });

  it('reports each schema error with its line', async () => {
    const err = await failure(edit('Код="1115131"', 'Код="1115131" Лишний="1"'), MINI);
    expect(err.code).toBe('schema_invalid');
    expect(err.findings).toEqual([{ line: 3, message: expect.stringMatching(/attribute 'Лишний' is not allowed/) }]);
    expect(err.message).toMatch(/Лишний/);

    const two = await failure(
      file(LINES.map((l) => l.replace('Дата="15.03.2026"', 'Дата="2026-03-15"').replace('Ставка="без НДС"', 'Ставка="12%"'))),
      MINI,
    );
    expect(two.code).toBe('schema_invalid');
    expect(two.findings).toEqual([
      { line: 3, message: expect.stringMatching(/Дата.*2026-03-15/) },
      { line: 5, message: expect.stringMatching(/Ставка.*'12%'/) },
    ]);
  });

  it('a not well-formed file is schema_invalid with the parser error', async () => {
    const err = await failure(Buffer.from('<?xml version="1.0"?><Файл>'), MINI);
    expect(err.code).toBe('schema_invalid');
    expect(err.findings.length).toBeGreaterThan(0);
  });

  it('xmllint is killed at the timeout and that is validator_unavailable', async () => {
    // 300 000 lines take xmllint far longer than 1 ms to read and check.
    const many = Array.from({ length: 300_000 }, (_, i) => `    <Строка Ном="${i + 1}" Наим="Товар ${i + 1}" Ставка="20%"/>`);
    const big = file([LINES[0]!, LINES[1]!, ...many, LINES[4]!, LINES[5]!]);
    const err = await failure(big, MINI, 1);
    expect(err.code).toBe('validator_unavailable');
    expect(err.message).toMatch(/within 1 ms/);
  });

  it('a missing schema file is validator_unavailable saying how to provide it, not a verdict on the document', async () => {
    const err = await failure(valid, '/nonexistent/schema.xsd');
    expect(err.code).toBe('validator_unavailable');
    expect(err.findings).toEqual([]);
    expect(err.message).toMatch(/\/nonexistent\/schema\.xsd not found/);
    expect(err.message).toMatch(/RECOGNITION_UPD_XSD.*ON_NSCHFDOPPR_1_997_01_05_03_05\.xsd/);
  });

  it('no schema configured is validator_unavailable saying how to provide it', async () => {
    for (const xsd of [undefined, '']) {
      const err = await failure(valid, xsd);
      expect(err.code).toBe('validator_unavailable');
      expect(err.message).toMatch(
        /no XSD schema configured: set RECOGNITION_UPD_XSD to the absolute path of the official FNS schema ON_NSCHFDOPPR_1_997_01_05_03_05\.xsd/,
      );
    }
  });

  it('a relative schema path or a directory is validator_unavailable', async () => {
    expect((await failure(valid, 'fixtures/mini.xsd')).message).toMatch(/not absolute: set RECOGNITION_UPD_XSD/);
    expect((await failure(valid, fileURLToPath(new URL('fixtures', import.meta.url)))).code).toBe('validator_unavailable');
  });

  it('a schema xmllint cannot compile is validator_unavailable', async () => {
    // A file that exists but is not a schema (the XML document itself): xmllint exits 5.
    const err = await failure(valid, fileURLToPath(new URL('fixtures/upd-5.03-hand.cp1251.xml', import.meta.url)));
    expect(err.code).toBe('validator_unavailable');
    expect(err.message).toMatch(/xmllint exited with 5/);
  });
});

describe('RECOGNITION_UPD_XSD in the recognition configuration', () => {
  it('is unset by default, an absolute path as given, and a relative path is refused', () => {
    expect(loadRecognitionConfig({}).updXsd).toBeUndefined();
    expect(loadRecognitionConfig({ RECOGNITION_UPD_XSD: ' ' }).updXsd).toBeUndefined();
    expect(loadRecognitionConfig({ RECOGNITION_UPD_XSD: '/etc/fns/ON_NSCHFDOPPR_1_997_01_05_03_05.xsd' }).updXsd).toBe(
      '/etc/fns/ON_NSCHFDOPPR_1_997_01_05_03_05.xsd',
    );
    expect(() => loadRecognitionConfig({ RECOGNITION_UPD_XSD: 'xsd/schema.xsd' })).toThrow(ConfigError);
    expect(() => loadRecognitionConfig({ RECOGNITION_UPD_XSD: 'xsd/schema.xsd' })).toThrow(/RECOGNITION_UPD_XSD must be an absolute path/);
  });
});

describe('parseXmllintErrors', () => {
  it('parses stdin findings and drops the summary line', () => {
    const stderr = [
      "-:12: element СведТов: Schemas validity error : Element 'СведТов', attribute 'НалСт': [facet 'enumeration'] bad.",
      '-:40: parser error : Premature end of data in tag Файл line 2',
      '- fails to validate',
      '',
    ].join('\n');
    expect(parseXmllintErrors(stderr)).toEqual([
      { line: 12, message: "Element 'СведТов', attribute 'НалСт': [facet 'enumeration'] bad." },
      { line: 40, message: 'parser error : Premature end of data in tag Файл line 2' },
    ]);
  });

  it('keeps a line without position as line 0', () => {
    expect(parseXmllintErrors('Schemas parser error : Failed to locate the main schema resource\n')).toEqual([
      { line: 0, message: 'Schemas parser error : Failed to locate the main schema resource' },
    ]);
  });
});
