import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { CallbackPayloadSchema, RecognizedDataSchema } from '../src/index.js';

const data = {
  document: { number: '17', date: '01.02.2026' },
  seller: { name: 'ООО "Альфа"', inn: '7707083893', kpp: '770701001' },
  buyer: { name: null, inn: null, kpp: null, address: null },
  items: [
    {
      number: 1,
      name: 'Товар',
      unit: { code: '796', name: 'шт' },
      quantity: 2,
      price: 100,
      amount_without_nds: 200,
      nds_rate: null,
      nds_exempt: true,
      nds_amount: 0,
      amount_with_nds: 200,
    },
  ],
  totals: { amount_without_nds: 200, nds_amount: 0, amount_with_nds: 200 },
};

describe('recognition contract', () => {
  it('accepts recognised data with the optional fields absent or null', () => {
    expect(Value.Check(RecognizedDataSchema, data)).toBe(true);
  });

  it('refuses recognised data without a required field', () => {
    const { totals: _, ...noTotals } = data;
    expect(Value.Check(RecognizedDataSchema, noTotals)).toBe(false);
  });

  it('tells the two callback bodies apart by event', () => {
    const common = { document_id: 'doc_1', document_type: 'upd', client_ref: null, completed_at: '2026-02-01T10:00:00.000Z' };
    const failed = { event: 'document.failed', status: 'failed', ...common, error: { code: 'RECOGNITION_FAILED', message: 'x' } };
    const completed = {
      event: 'document.completed',
      status: 'completed',
      ...common,
      confidence: 0.9,
      data,
      warnings: [],
      manual_check_recommended: false,
    };
    expect(Value.Check(CallbackPayloadSchema, failed)).toBe(true);
    expect(Value.Check(CallbackPayloadSchema, completed)).toBe(true);
    expect(Value.Check(CallbackPayloadSchema, { ...failed, event: 'document.completed' })).toBe(false);
  });
});
