import { describe, expect, it } from 'vitest';
import { ManualClock } from '@app/shared';
import { parseFilter, warningsByField } from '../../src/admin-web/admin-documents.service.js';
import { clockStore } from '@app/admin-web';
import { warningText } from '../../src/admin-web/warning-text.js';
import { validateRecognizedData } from '../../src/engine/validate/validate.js';
import { makeData, makeItem } from '../fixtures.js';

describe('warning texts in Russian', () => {
  it('translates every warning the validator gives for a badly read document', () => {
    const data = makeData({
      document: { number: '', date: '31.02.2025' },
      seller: { name: 'X', inn: '123', kpp: 'bad' },
      buyer: { name: 'Y', inn: '7707083894', kpp: null },
      items: [makeItem({ amount_with_nds: 250, unit: { code: '999', name: 'шт' } }), makeItem({ number: 2, nds_rate: null, price: null })],
    });
    const warnings = validateRecognizedData(data).warnings;
    expect(warnings.length).toBeGreaterThan(6);
    for (const w of warnings) expect(warningText(w.message), w.message).toMatch(/[А-Яа-яЁё]/);
    expect(warningText('INN "123" must have 10 or 12 digits')).toBe('ИНН «123» должен состоять из 10 или 12 цифр');
    expect(warningText('item name read with low confidence (0.62); check it against the page')).toBe(
      'Наименование товара прочитано неуверенно (0.62); сверьте с документом',
    );
    expect(warningText('printed 855.5, the lines read sum to 555.5 (one digit apart: a misread digit or a line not read); kept as printed')).toMatch(
      /^Напечатано 855.5/,
    );
  });

  it('leaves an unknown message as it is, and groups warnings by field', () => {
    expect(warningText('something new')).toBe('something new');
    const m = warningsByField([
      { field: 'seller.inn', message: 'INN is empty' },
      { field: 'seller.inn', message: 'x' },
    ]);
    expect(m.get('seller.inn')).toEqual(['ИНН не заполнен', 'x']);
  });
});

describe('documents filter', () => {
  it('turns Moscow calendar days into instants and pages into offsets', () => {
    const { filter, errors } = parseFilter({
      from: '2026-11-23',
      to: '2026-11-23',
      review: '1',
      page: '3',
      status: 'completed',
      type: 'upd',
      key: 'key_00ff',
    });
    expect(errors).toEqual([]);
    expect(filter).toMatchObject({ status: 'completed', type: 'upd', keyId: 'key_00ff', review: true, limit: 20, offset: 40 });
    expect(filter.from!.toISOString()).toBe('2026-11-22T21:00:00.000Z');
    expect(filter.to!.toISOString()).toBe('2026-11-23T21:00:00.000Z');
  });

  it('names and drops each invalid value', () => {
    const { filter, values, errors } = parseFilter({ status: 'done', type: 'pdf', from: '2026-02-30', to: 'tomorrow', page: '0', key: 'drop table' });
    expect(errors).toHaveLength(6);
    expect(filter).toEqual({ limit: 20, offset: 0 });
    expect(values).toMatchObject({ status: '', type: '', from: '', to: '', key: '', page: 1 });
  });
});

describe('rate-limit store on the injected clock', () => {
  it('counts within a window and starts again after it', async () => {
    const clock = new ManualClock('2026-11-23T09:00:00Z');
    const store = new (clockStore(clock))();
    const incr = () => new Promise<{ current: number; ttl: number }>((resolve) => store.incr('1.2.3.4', (_e, r) => resolve(r!), 60_000));
    expect(await incr()).toEqual({ current: 1, ttl: 60_000 });
    clock.advance(59_000);
    expect(await incr()).toEqual({ current: 2, ttl: 1_000 });
    clock.advance(1_000);
    expect(await incr()).toEqual({ current: 1, ttl: 60_000 });
    expect(store.child()).not.toBe(store);
  });
});
