import { readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { loadRecognitionConfig } from '../../src/config.js';
import { FormalizedXmlError, readFormalizedUpd, validateAgainstXsd, writeFormalizedUpd } from '../../src/formalized/index.js';
import { ROUND_TRIP_CASES, truth, withZeroRateLine, WRITE_OPTIONS } from './helpers.js';

// Checks that need the official FNS schema ON_NSCHFDOPPR_1_997_01_05_03_05.xsd, which the repository does not ship.
// This file is collected only when RECOGNITION_UPD_XSD names an existing file (root vitest.config.ts); the schema
// path is read the way the service reads it, through the recognition configuration.
const XSD = loadRecognitionConfig().updXsd;
const decoded = (xml: Buffer) => iconv.decode(xml, 'win1251');
const write = (seed: number, type: 'upd' | 'invoice') => writeFormalizedUpd(truth(seed, type), type, WRITE_OPTIONS).xml;

async function failure(xml: Buffer): Promise<FormalizedXmlError> {
  const err = await validateAgainstXsd(xml, XSD).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FormalizedXmlError);
  return err as FormalizedXmlError;
}

describe('the official FNS 5.03 schema (RECOGNITION_UPD_XSD)', () => {
  it('is configured', () => {
    expect(XSD).toMatch(/ON_NSCHFDOPPR_1_997_01_05_03_05\.xsd$/);
  });

  it('the hand-written windows-1251 5.03 fixture is valid', async () => {
    await validateAgainstXsd(readFileSync(new URL('fixtures/upd-5.03-hand.cp1251.xml', import.meta.url)), XSD);
  });

  for (const c of ROUND_TRIP_CASES) {
    it(`the writer's file is valid: seed ${c.seed} ${c.type} (${c.covers})`, async () => {
      await validateAgainstXsd(write(c.seed, c.type), XSD);
    });
  }

  it('a 0 % line and a 22 % line (2026) are valid', async () => {
    await validateAgainstXsd(writeFormalizedUpd(withZeroRateLine(truth(8, 'upd'), 1), 'upd', WRITE_OPTIONS).xml, XSD);
    const data = truth(1, 'upd');
    expect(data.items.some((i) => i.nds_rate === 22)).toBe(true);
    await validateAgainstXsd(writeFormalizedUpd(data, 'upd', WRITE_OPTIONS).xml, XSD);
  });

  it('character references, left-out fields, the transfer basis and shipment documents are valid', async () => {
    const refs = truth(8, 'upd');
    refs.items[0]!.name = 'Плитка 60×60 м² Ø5';
    await validateAgainstXsd(writeFormalizedUpd(refs, 'upd', WRITE_OPTIONS).xml, XSD);

    const sparse = truth(8, 'invoice');
    sparse.seller.address = null;
    sparse.items[0] = { ...sparse.items[0]!, unit: { code: null, name: null }, quantity: null, price: null };
    sparse.totals.amount_without_nds = null;
    await validateAgainstXsd(writeFormalizedUpd(sparse, 'invoice', WRITE_OPTIONS).xml, XSD);

    const basis = { ...WRITE_OPTIONS, transfer: { operation: 'Работы выполнены', basis: { name: 'Договор', number: '17', date: '01.02.2026' } } };
    await validateAgainstXsd(writeFormalizedUpd(truth(8, 'upd'), 'upd', basis).xml, XSD);

    const extras = { shipmentDocuments: [{ name: 'Товарная накладная', number: 'ТН-5', date: '10.02.2025' }] };
    const shipped = writeFormalizedUpd(truth(24, 'invoice'), 'invoice', WRITE_OPTIONS, extras).xml;
    await validateAgainstXsd(shipped, XSD);
    expect(readFormalizedUpd(shipped).data).toEqual(truth(24, 'invoice'));
  });

  it('a rate the schema does not list is reported with its line', async () => {
    const data = truth(8, 'upd');
    data.items[0]!.nds_rate = 12;
    const err = await failure(writeFormalizedUpd(data, 'upd', WRITE_OPTIONS).xml);
    expect(err.code).toBe('schema_invalid');
    expect(err.findings[0]).toEqual({ line: expect.any(Number), message: expect.stringMatching(/НалСт.*'12%'/) });
  });

  it('an attribute the schema does not have and a bad date are reported with their lines', async () => {
    const text = decoded(write(8, 'upd'));
    const extra = await failure(iconv.encode(text.replace('КНД="1115131"', 'КНД="1115131" Лишний="1"'), 'win1251'));
    expect(extra.code).toBe('schema_invalid');
    expect(extra.findings).toEqual([{ line: 3, message: expect.stringMatching(/attribute 'Лишний' is not allowed/) }]);
    const date = await failure(iconv.encode(text.replace('ДатаДок="', 'ДатаДок="2026-'), 'win1251'));
    expect(date.findings[0]?.message).toMatch(/ДатаДок/);
    expect(date.findings[0]?.line).toBeGreaterThan(3);
  });
});
