import type { Rng } from './random.js';
import type { TruthParty } from './truth.types.js';

const W10 = [2, 4, 10, 3, 5, 9, 4, 6, 8];
const W11 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const W12 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];

/** Check digit of an INN prefix with the given weights (Federal Tax Service algorithm: Σ(dᵢ·wᵢ) mod 11 mod 10). */
function checkDigit(prefix: string, weights: number[]): string {
  const sum = weights.reduce((acc, w, i) => acc + w * Number(prefix[i]), 0);
  return String((sum % 11) % 10);
}

/** A valid 10-digit legal-entity INN in the region (first 4 digits = tax office code). */
export function legalInn(rng: Rng, region: string): string {
  const base = region + rng.digits(9 - region.length);
  return base + checkDigit(base, W10);
}

/** A valid 12-digit individual (sole trader) INN. */
export function personInn(rng: Rng, region: string): string {
  const base = region + rng.digits(10 - region.length);
  const with11 = base + checkDigit(base, W11);
  return with11 + checkDigit(with11, W12);
}

interface Region {
  office: string;
  city: string;
  index: string;
}
const REGIONS: Region[] = [
  { office: '7701', city: 'г. Москва', index: '101000' },
  { office: '7714', city: 'г. Москва', index: '125040' },
  { office: '7810', city: 'г. Санкт-Петербург', index: '196084' },
  { office: '1655', city: 'г. Казань', index: '420111' },
  { office: '6658', city: 'г. Екатеринбург', index: '620014' },
  { office: '5406', city: 'г. Новосибирск', index: '630099' },
  { office: '5260', city: 'г. Нижний Новгород', index: '603005' },
  { office: '6315', city: 'г. Самара', index: '443010' },
  { office: '6164', city: 'г. Ростов-на-Дону', index: '344002' },
  { office: '2310', city: 'г. Краснодар', index: '350000' },
  { office: '0274', city: 'г. Уфа', index: '450077' },
  { office: '3664', city: 'г. Воронеж', index: '394036' },
];
const STREETS = [
  'ул. Ленина',
  'ул. Гагарина',
  'ул. Садовая',
  'пр-т Мира',
  'ул. Советская',
  'ул. Промышленная',
  'ул. Заводская',
  'Октябрьский пр-т',
  'ул. Кирова',
  'ул. Пушкина',
  'наб. Речная',
  'ул. Строителей',
  'ш. Энтузиастов',
];
const ADJ = [
  'Северный',
  'Южный',
  'Торговый',
  'Первый',
  'Новый',
  'Сибирский',
  'Волжский',
  'Уральский',
  'Центральный',
  'Промышленный',
  'Городской',
  'Восточный',
  'Балтийский',
  'Региональный',
];
const NOUN = [
  'Альянс',
  'Ресурс',
  'Партнёр',
  'Поток',
  'Стандарт',
  'Сервис',
  'Капитал',
  'Вектор',
  'Импульс',
  'Союз',
  'Монолит',
  'Маяк',
  'Горизонт',
  'Проект',
  'Континент',
  'Элемент',
];
const SINGLE = [
  'Ромашка',
  'Техноторг',
  'Стройматериалы',
  'Агроснаб',
  'Продторг',
  'Металлсервис',
  'Электрокомплект',
  'Хозтовары',
  'Офисмаг',
  'Мебельторг',
  'Полимер',
  'Спецодежда',
  'Кондитер',
  'Автодеталь',
  'Бумторг',
  'Светотехника',
];
const SURNAMES = ['Иванов', 'Смирнов', 'Кузнецов', 'Попов', 'Васильев', 'Петров', 'Соколов', 'Михайлов', 'Фёдоров'];
const FIRST = ['Андрей', 'Сергей', 'Дмитрий', 'Алексей', 'Игорь', 'Олег', 'Павел', 'Николай'];
const PATRONYMIC = ['Иванович', 'Петрович', 'Сергеевич', 'Андреевич', 'Викторович', 'Олегович', 'Николаевич'];

function address(rng: Rng, r: Region): string {
  const office = rng.chance(0.5) ? `, офис ${rng.int(1, 450)}` : '';
  return `${r.index}, ${r.city}, ${rng.pick(STREETS)}, д. ${rng.int(1, 120)}${office}`;
}

/**
 * A counterparty: mostly ООО/АО (10-digit INN, KPP = tax office + "01" + "001") and sometimes a sole trader
 * (ИП, 12-digit INN, no KPP). Names use «» quotes as 1C prints them.
 */
export function makeParty(rng: Rng): TruthParty {
  const region = rng.pick(REGIONS);
  if (rng.chance(0.12)) {
    const name = `ИП ${rng.pick(SURNAMES)} ${rng.pick(FIRST)} ${rng.pick(PATRONYMIC)}`;
    return { name, inn: personInn(rng, region.office), kpp: null, address: address(rng, region) };
  }
  const form = rng.pick(['ООО', 'ООО', 'ООО', 'АО', 'ПАО']);
  const title = rng.chance(0.5) ? rng.pick(SINGLE) : `${rng.pick(ADJ)} ${rng.pick(NOUN)}`;
  const kpp = `${region.office}01001`;
  return { name: `${form} «${title}»`, inn: legalInn(rng, region.office), kpp, address: address(rng, region) };
}
