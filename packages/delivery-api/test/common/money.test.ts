import { describe, expect, it } from 'vitest';
import { formatQuantity, lineTotalMinor, parseQuantityMilli } from '../../src/common/money.js';

describe('quantities and line totals (exact, no floating point)', () => {
  it('parses up to 3 decimals exactly', () => {
    expect(parseQuantityMilli('1')).toBe(1000);
    expect(parseQuantityMilli('0.5')).toBe(500);
    expect(parseQuantityMilli('2.125')).toBe(2125);
    expect(parseQuantityMilli('0.001')).toBe(1);
    expect(parseQuantityMilli('0.1')).toBe(100);
  });
  it('refuses zero, negatives, 4 decimals, exponents, spaces, commas', () => {
    for (const bad of ['0', '0.000', '-1', '1.2345', '1e3', ' 1', '1,5', '', '01', '.5', '5.']) expect(parseQuantityMilli(bad), bad).toBeNull();
  });
  it('rounds each line half up to the kopeck', () => {
    expect(lineTotalMinor(33333, 1500)).toBe(50000); // 499.995 RUB → 500.00
    expect(lineTotalMinor(999, 500)).toBe(500); // 4.995 → 5.00
    expect(lineTotalMinor(997, 500)).toBe(499); // 4.985 → 4.99 (half up only at .5)
    expect(lineTotalMinor(59000, 2000)).toBe(118000);
  });
  it('formats thousandths back', () => {
    expect(formatQuantity(1500)).toBe('1.5');
    expect(formatQuantity(2000)).toBe('2');
    expect(formatQuantity(1)).toBe('0.001');
  });
});
