import { RecognizedDataSchema } from '@app/recognition-contract';
import { describe, expect, it } from 'vitest';
import { AiAnswer, isAiAnswer } from '../../../src/engine/ai/ai-schema.js';

type Node = { required?: string[]; properties?: Record<string, Node>; items?: Node; additionalProperties?: boolean };

describe('AI answer schema', () => {
  const answer = AiAnswer as unknown as Node;

  it('is the contract’s recognised data plus document_type, every property required', () => {
    expect(answer.required).toEqual(['document_type', ...Object.keys(RecognizedDataSchema.properties)]);
    expect(answer.properties?.seller.required).toEqual(['name', 'inn', 'kpp', 'address']);
    expect(answer.properties?.items.items?.required).toContain('product_code');
    expect(answer.properties?.items.items?.required).toContain('nds_exempt');
  });

  it('refuses unknown properties at every depth (strict structured output)', () => {
    expect(answer.additionalProperties).toBe(false);
    expect(answer.properties?.items.items?.properties?.unit.additionalProperties).toBe(false);
    expect(answer.properties?.totals.additionalProperties).toBe(false);
  });

  it('accepts a full answer and refuses one missing an optional contract field', () => {
    const party = { name: 'А', inn: '7707083893', kpp: null, address: null };
    const full = {
      document_type: 'upd',
      document: { number: '1', date: null },
      seller: party,
      buyer: party,
      items: [],
      totals: { amount_without_nds: null, nds_amount: null, amount_with_nds: null },
    };
    expect(isAiAnswer(full)).toBe(true);
    expect(isAiAnswer({ ...full, seller: { name: 'А', inn: null, kpp: null } })).toBe(false);
  });
});
