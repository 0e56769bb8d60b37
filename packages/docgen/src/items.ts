import type { Rng } from './random.js';
import type { TruthItem } from './truth.types.js';

interface Product {
  name: string;
  code: string;
  unit: string;
  food?: boolean;
  weight?: boolean;
  min: number;
  max: number;
}

/** OKEI code → short name as printed (the units goods documents use most). */
export const UNITS: Record<string, string> = {
  '796': 'шт',
  '166': 'кг',
  '112': 'л',
  '006': 'м',
  '778': 'упак',
  '839': 'компл',
  '055': 'м2',
  '113': 'м3',
  '736': 'рул',
};

const PRODUCTS: Product[] = [
  { name: 'Бумага офисная А4 500 листов', code: '796', unit: 'шт', min: 250, max: 480 },
  { name: 'Картридж лазерный черный', code: '796', unit: 'шт', min: 1500, max: 6900 },
  { name: 'Кабель ВВГнг 3х2,5', code: '006', unit: 'м', min: 60, max: 140 },
  { name: 'Саморез по дереву 3,5х35', code: '778', unit: 'упак', min: 90, max: 380 },
  { name: 'Перчатки рабочие хлопковые', code: '796', unit: 'шт', min: 25, max: 90 },
  { name: 'Краска фасадная белая 10 л', code: '796', unit: 'шт', min: 1800, max: 5200 },
  { name: 'Цемент М500 мешок 50 кг', code: '796', unit: 'шт', min: 420, max: 690 },
  { name: 'Светильник светодиодный 36 Вт', code: '796', unit: 'шт', min: 900, max: 3400 },
  { name: 'Набор отверток диэлектрических', code: '839', unit: 'компл', min: 700, max: 2900 },
  { name: 'Масло моторное 5W-40', code: '112', unit: 'л', min: 380, max: 950 },
  { name: 'Стол письменный офисный', code: '796', unit: 'шт', min: 5200, max: 14800 },
  { name: 'Кресло офисное на колесах', code: '796', unit: 'шт', min: 4900, max: 18900 },
  { name: 'Лента упаковочная прозрачная', code: '796', unit: 'шт', min: 45, max: 160 },
  { name: 'Профиль направляющий 27х28', code: '796', unit: 'шт', min: 110, max: 260 },
  { name: 'Труба полипропиленовая 20 мм', code: '006', unit: 'м', min: 35, max: 120 },
  { name: 'Сахар песок', code: '166', unit: 'кг', food: true, weight: true, min: 62, max: 98 },
  { name: 'Мука пшеничная высший сорт', code: '166', unit: 'кг', food: true, weight: true, min: 48, max: 85 },
  { name: 'Молоко пастеризованное 3,2%', code: '112', unit: 'л', food: true, min: 72, max: 110 },
  { name: 'Крупа гречневая ядрица', code: '166', unit: 'кг', food: true, weight: true, min: 80, max: 160 },
  { name: 'Масло подсолнечное рафинированное', code: '112', unit: 'л', food: true, min: 130, max: 210 },
  { name: 'Чай черный листовой 100 г', code: '778', unit: 'упак', food: true, min: 90, max: 340 },
  { name: 'Вода питьевая 19 л', code: '796', unit: 'шт', food: true, min: 220, max: 480 },
  { name: 'Услуги по доставке груза', code: '796', unit: 'шт', min: 1200, max: 9500 },
];

/**
 * Goods whose names carry Latin brand names and model codes, as real catalogues print them. They exercise the
 * Latin/Cyrillic look-alikes the rus OCR model confuses ("HP CF283A" → "НР СЕ283А", "Arabica" → "АгаЫса").
 * Used by `generateDocument({latinNames: true})` (the default catalogue stays as it was, so benchmark sets of
 * the existing tiers do not change).
 */
export const LATIN_PRODUCTS: Product[] = [
  { name: 'Картридж HP CF283A черный', code: '796', unit: 'шт', min: 1900, max: 4800 },
  { name: 'Лампа светодиодная LED A60 E27 10 Вт', code: '796', unit: 'шт', min: 60, max: 190 },
  { name: 'Шина летняя R16 94T', code: '796', unit: 'шт', min: 4200, max: 9800 },
  { name: 'Кофе в зернах Arabica 1 кг', code: '778', unit: 'упак', food: true, min: 900, max: 2400 },
  { name: 'Бумага Svetocopy A4 80 г/м2', code: '778', unit: 'упак', min: 280, max: 520 },
  { name: 'Мышь беспроводная Logitech M185', code: '796', unit: 'шт', min: 700, max: 1500 },
  { name: 'Клавиатура Defender Element HB-520', code: '796', unit: 'шт', min: 500, max: 1300 },
  { name: 'Кабель USB Type-C 1 м', code: '796', unit: 'шт', min: 150, max: 600 },
  { name: 'Чай Greenfield Earl Grey 100 пак.', code: '778', unit: 'упак', food: true, min: 250, max: 520 },
  { name: 'Масло моторное Shell Helix HX7 5W-40', code: '112', unit: 'л', min: 450, max: 1100 },
  { name: 'Аккумулятор Varta Blue Dynamic 60Ah', code: '796', unit: 'шт', min: 6500, max: 11900 },
  { name: 'Фильтр масляный MANN W 712/75', code: '796', unit: 'шт', min: 400, max: 1100 },
];

/**
 * Goods named the way real 1C catalogues print them (docs/decisions.md "Hard tiers in docgen"): Latin model codes and standards beside Cyrillic
 * words, the Cyrillic "х" as a multiplication sign with and without spaces, `°C`, `м²`, `м³`, `Ø`, `№`, slashes,
 * «» and "" quotes, long names that wrap. Invented for the generator; used by `generateDocument({realNames: true})`.
 */
export const REAL_PRODUCTS: Product[] = [
  { name: 'Саморез по дереву 4,2х75 мм, оцинкованный (уп. 200 шт.)', code: '778', unit: 'упак', min: 180, max: 420 },
  { name: 'Труба ПНД Ø32 мм SDR 11 PN16, бухта 100 м', code: '006', unit: 'м', min: 38, max: 95 },
  { name: 'Керамогранит «Гранит Серый» 600 х 600 х 9 мм, матовый', code: '055', unit: 'м2', min: 690, max: 1450 },
  { name: 'Шкаф холодильный Polair CM107-S, +1…+10 °C', code: '796', unit: 'шт', min: 48000, max: 96000 },
  { name: 'Светильник LED-ДПО 36 Вт 4000 K IP65, 1200 мм', code: '796', unit: 'шт', min: 780, max: 2100 },
  { name: 'Кран шаровой DN25 PN40 ВР/ВР, латунь', code: '796', unit: 'шт', min: 390, max: 980 },
  { name: 'Утеплитель минвата 1200х600х50 мм (0,288 м³), 8 плит', code: '778', unit: 'упак', min: 640, max: 1300 },
  { name: 'Эмаль ПФ-115 "Радуга" белая глянцевая, 2,7 кг', code: '796', unit: 'шт', min: 420, max: 890 },
  { name: 'Кабель КГ-ХЛ 3х2,5 ГОСТ 24334-2020', code: '006', unit: 'м', min: 95, max: 210 },
  { name: 'Сверло по металлу Ø 8,0 мм HSS-G DIN 338', code: '796', unit: 'шт', min: 85, max: 260 },
  { name: 'Пленка стрейч 500 мм х 20 мкм, 1,8 кг, прозрачная', code: '736', unit: 'рул', min: 310, max: 640 },
  { name: 'Йогурт питьевой 2,5% 270 г, хранение при +2…+6 °C', code: '796', unit: 'шт', food: true, min: 45, max: 95 },
  { name: 'Перчатки нитриловые неопудренные, р-р L, № 50 пар', code: '778', unit: 'упак', min: 390, max: 820 },
  { name: 'Газобетон D500 625х250х300 мм', code: '113', unit: 'м3', min: 5200, max: 7900 },
  { name: 'Лампа GU10 7W 3000K 230V', code: '796', unit: 'шт', min: 95, max: 240 },
  { name: 'Сетка фасадная 5х5 мм, 160 г/м², 1х50 м', code: '736', unit: 'рул', min: 1200, max: 2600 },
];

/** Roubles rounded to kopecks without binary drift. */
export const rub = (x: number): number => Math.round(x * 100) / 100;

export type RateRule = { standard: 20 | 22 };

/** Real-catalogue options: the real-catalogue names, and prices that include VAT (printed price rounded). */
export interface ItemStyle {
  realNames?: boolean;
  pricesIncludeVat?: boolean;
}

/**
 * One item line with exact arithmetic: amount = round(quantity × price), VAT = round(amount × rate / 100),
 * amount with VAT = amount + VAT. Food goes at 10 %, other goods at the standard rate (20 % for 2025 dates,
 * 22 % from 2026); about 5 % of lines are "без НДС" (VAT amount null). `latinNames` draws from
 * {@link LATIN_PRODUCTS} (two in three) and the first six ordinary goods; `extra.realNames` from
 * {@link REAL_PRODUCTS}; `extra.pricesIncludeVat` makes the drawn price the gross unit price (VAT = gross × r/(100+r),
 * price without VAT = amount ÷ quantity rounded to kopecks).
 */
export function makeItem(rng: Rng, number: number, rule: RateRule, exemptDoc: boolean, latinNames = false, extra: ItemStyle = {}): TruthItem {
  const p = rng.pick(extra.realNames ? REAL_PRODUCTS : latinNames ? [...LATIN_PRODUCTS, ...PRODUCTS.slice(0, 6)] : PRODUCTS);
  const quantity = p.weight ? rub(rng.int(500, 250000) / 1000) : rng.chance(0.7) ? rng.int(1, 40) : rng.int(41, 1200);
  let price = rub(rng.int(p.min * 100, p.max * 100) / 100);
  let amount = rub(Math.round(quantity * price * 100) / 100);
  const exempt = exemptDoc;
  const rate = exempt ? null : p.food ? 10 : rule.standard;
  let vat = rate == null ? null : rub(Math.round(amount * rate) / 100);
  if (extra.pricesIncludeVat && rate != null) {
    // 1C with prices including VAT: the drawn price is the gross unit price; VAT is taken out of the gross amount
    // and the printed price without VAT is the net amount ÷ quantity rounded, so quantity × price may miss the amount.
    const gross = rub(Math.round(quantity * price * 100) / 100);
    vat = rub(Math.round((gross * rate * 100) / (100 + rate)) / 100);
    amount = rub(gross - vat);
    price = rub(Math.round((amount / quantity) * 100) / 100);
  }
  const code = rng.chance(0.6) ? String(rng.int(10000, 99999)) : null;
  return {
    number,
    name: p.name,
    product_code: code,
    unit: { code: p.code, name: p.unit },
    quantity,
    price,
    amount_without_nds: amount,
    nds_rate: rate,
    nds_exempt: exempt || undefined,
    nds_amount: vat,
    amount_with_nds: rub(amount + (vat ?? 0)),
  };
}
