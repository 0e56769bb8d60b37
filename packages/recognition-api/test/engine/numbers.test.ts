import { describe, expect, it } from 'vitest';
import { parseLineNumber, parseMoney, parseRate, parseRuNumber } from '../../src/engine/extract/numbers.js';

describe('Russian number parsing', () => {
  it.each([
    ['1 234,56', 1234.56],
    ['1\u00a0234\u00a0567,89', 1234567.89],
    ['12', 12],
    ['2,500', 2.5],
    ['1234.5', 1234.5],
    ['429 844,80', 429844.8],
    ['1519 956,71', 1519956.71],
    ['0,99', 0.99],
    ['98,65.', 98.65],
    ['1О5,ЗО', 105.3],
    // A blurred 5 read as "$", as a digit group of its own or inside one.
    ['$ 586,46', 5586.46],
    ['$10,54', 510.54],
  ])('reads %s as %d', (text, value) => {
    expect(parseRuNumber(text)).toBe(value);
  });

  it.each(['', '--', 'без НДС', 'X', '12,5,6', 'акциза', '$', '5$'])('rejects %j', (text) => {
    expect(parseRuNumber(text)).toBeNull();
  });

  it('refuses more than two decimals for money but not for quantities', () => {
    expect(parseMoney('114,800')).toBeNull();
    expect(parseRuNumber('114,800')).toBe(114.8);
    expect(parseMoney('81,51')).toBe(81.51);
  });

  it('reads VAT rates and "без НДС"', () => {
    expect(parseRate('22%')).toBe(22);
    expect(parseRate('20 %')).toBe(20);
    expect(parseRate('10/110')).toBe(10);
    expect(parseRate('без НДС')).toBe('exempt');
    expect(parseRate('без')).toBe('exempt');
    expect(parseRate('33%')).toBeNull();
    // A cell border read into the word on a grey scan.
    expect(parseRate('_22%')).toBe(22);
    expect(parseRate('|10%')).toBe(10);
    expect(parseRuNumber('_1 250,00')).toBe(1250);
    expect(parseMoney('203 801,44_')).toBe(203801.44);
    expect(parseMoney('5,125_')).toBeNull();
    // A lone digit the rus model read as its letter twin.
    expect(parseRuNumber('З')).toBe(3);
    expect(parseRuNumber('б')).toBe(6);
    expect(parseRuNumber('О')).toBeNull();
    expect(parseRuNumber('Зб')).toBeNull();
    // A photo that lost the decimal comma of an amount: the two-digit last group is the kopecks.
    expect(parseMoney('7 733 90')).toBe(7733.9);
    expect(parseMoney('140 550 00')).toBe(140550);
    expect(parseMoney('25 800')).toBe(25800);
    expect(parseMoney('28 38')).toBeNull();
    expect(parseRate('')).toBeNull();
  });

  it('reads line numbers', () => {
    expect(parseLineNumber('12')).toBe(12);
    expect(parseLineNumber('3.')).toBe(3);
    expect(parseLineNumber('Мука')).toBeNull();
  });
});
