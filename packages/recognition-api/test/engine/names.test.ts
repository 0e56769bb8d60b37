import { describe, expect, it } from 'vitest';
import { cleanName, codeDigits, isUnitRatio, itemName, rowToItem, unitLookalike } from '../../src/engine/extract/items.js';
import { word } from './fixtures.js';
import { FORMS } from '../../src/engine/extract/columns.js';

describe('item name cleaning: photo OCR classes of error', () => {
  it('turns a decimal point into the comma only in a name that prints its other fractions with a comma', () => {
    expect(cleanName('Круг отрезной 125х1,2х22.23 мм')).toBe('Круг отрезной 125х1,2х22,23 мм');
    expect(cleanName('Молоко пастеризованное 3.2%, 0,9 л')).toBe('Молоко пастеризованное 3,2%, 0,9 л');
  });

  it('reads a point after a whole word, before a lower-case word or a number, as the comma a blur shortened', () => {
    expect(cleanName('Клей плиточный Церезит. 25 кг')).toBe('Клей плиточный Церезит, 25 кг');
    expect(cleanName('Шпатлёвка финишная Vetonit. белая')).toBe('Шпатлёвка финишная Vetonit, белая');
    // Abbreviations keep their point; so does a point before a capital or at the end.
    expect(cleanName('Саморез кровельный рис. 424-6')).toBe('Саморез кровельный рис. 424-6');
    expect(cleanName('Бумага офисная (уп. 500 листов)')).toBe('Бумага офисная (уп. 500 листов)');
    expect(cleanName('Набор отвёрток. Сталь CrV')).toBe('Набор отвёрток. Сталь CrV');
    expect(cleanName('Провод монтажный ок. 100 м')).toBe('Провод монтажный ок. 100 м');
  });

  it('reads a point after a unit symbol or between two numbers as a comma, and "мы" after a number as мм', () => {
    expect(cleanName('Плитка настенная 200х300 мм. глянцевая')).toBe('Плитка настенная 200х300 мм, глянцевая');
    expect(cleanName('Лампа светодиодная 10 Вт. 4000 К')).toBe('Лампа светодиодная 10 Вт, 4000 К');
    expect(cleanName('Клей монтажный Moment 40. 125 мл')).toBe('Клей монтажный Moment 40, 125 мл');
    expect(cleanName('Лента клейкая 19 мы х 33 м')).toBe('Лента клейкая 19 мм х 33 м');
    // A decimal point, an abbreviation after a unit, "мы" as a word and "шт." are left as printed.
    expect(cleanName('Кабель USB 3.0 AM-BM')).toBe('Кабель USB 3.0 AM-BM');
    expect(cleanName('Гвозди 3,0х70 мм (уп. 5 кг)')).toBe('Гвозди 3,0х70 мм (уп. 5 кг)');
    expect(cleanName('Набор «Мы рисуем» 12 цветов')).toBe('Набор «Мы рисуем» 12 цветов');
    expect(cleanName('Конверт С5 (уп. 100 шт.)')).toBe('Конверт С5 (уп. 100 шт.)');
  });

  it('joins a size whose multiplication sign OCR left glued before a space, and keeps the spaced form', () => {
    expect(cleanName('Плита OSB-3 2500х 1250х12 мм')).toBe('Плита OSB-3 2500х1250х12 мм');
    expect(cleanName('Брус 50х 50 мм')).toBe('Брус 50х50 мм');
    expect(cleanName('Скотч 48 мм х 66 м')).toBe('Скотч 48 мм х 66 м');
    expect(cleanName('Кабель ВВГ 3 х 2,5')).toBe('Кабель ВВГ 3 х 2,5');
  });

  it('keeps decimal points a catalogue prints: versions, standards, dates, Latin-only names', () => {
    expect(cleanName('Кабель USB 3.0 AM-BM')).toBe('Кабель USB 3.0 AM-BM');
    expect(cleanName('Кабель USB 3.0 AM-BM, 1,5 м')).toBe('Кабель USB 3.0 AM-BM, 1,5 м');
    expect(cleanName('Точка доступа Wi-Fi 802.11ac')).toBe('Точка доступа Wi-Fi 802.11ac');
    expect(cleanName('Роутер 802.11ac двухдиапазонный, 2,4 ГГц')).toBe('Роутер 802.11ac двухдиапазонный, 2,4 ГГц');
    expect(cleanName('Саморез по дереву 3.5х35')).toBe('Саморез по дереву 3.5х35');
    expect(cleanName('Услуги по договору от 01.02.2026')).toBe('Услуги по договору от 01.02.2026');
    expect(cleanName('Кабель USB 3.0.1')).toBe('Кабель USB 3.0.1');
    expect(cleanName('HP CF283A 1.5')).toBe('HP CF283A 1.5');
  });

  it('reads a Latin W that the rus model split into slashes, or "М/" in an SAE viscosity grade', () => {
    expect(cleanName('Масло моторное 5\\/-40')).toBe('Масло моторное 5W-40');
    expect(cleanName('Масло моторное 5М/-40')).toBe('Масло моторное 5W-40');
    expect(cleanName('Масло моторное 10\\М/-40')).toBe('Масло моторное 10W-40');
  });

  it('keeps "М/" that is printed so (a brand before a size)', () => {
    expect(cleanName('Лента клейкая 3М/50 м')).toBe('Лента клейкая 3М/50 м');
    expect(cleanName('Скотч 3М/25-50 прозрачный')).toBe('Скотч 3М/25-50 прозрачный');
  });

  it('drops an opening quote that has no closing one, keeps a quoted name', () => {
    expect(cleanName('“Мука пшеничная высший сорт')).toBe('Мука пшеничная высший сорт');
    expect(cleanName('«Мука» высший сорт')).toBe('«Мука» высший сорт');
    expect(cleanName('Аккумулятор 60 Ач, обратная „полярность')).toBe('Аккумулятор 60 Ач, обратная полярность');
    expect(cleanName('Краска «Снежка» белая, „10 л')).toBe('Краска «Снежка» белая, 10 л');
    expect(cleanName('Краска фасадная „Фасад-Люкс“ белая')).toBe('Краска фасадная „Фасад-Люкс“ белая');
  });

  it('drops a single angle quote a speck gave at either end of the name, keeps quotes inside it', () => {
    expect(cleanName('‹ Фреон R-22, баллон 13,6 кг')).toBe('Фреон R-22, баллон 13,6 кг');
    expect(cleanName('›Фреон R-22, баллон 13,6 кг ‹')).toBe('Фреон R-22, баллон 13,6 кг');
    expect(cleanName('Краска «Снежка» белая')).toBe('Краска «Снежка» белая');
  });

  it('reads a lone б before a size as the diameter sign, keeps б in words and abbreviations', () => {
    expect(cleanName('Труба гофрированная б 32 мм, 50 м')).toBe('Труба гофрированная Ø 32 мм, 50 м');
    expect(cleanName('Диск алмазный б 230х22,2')).toBe('Диск алмазный Ø 230х22,2');
    expect(cleanName('Клапан б/у 2 шт')).toBe('Клапан б/у 2 шт');
    expect(cleanName('Набор бит 32 предмета')).toBe('Набор бит 32 предмета');
  });

  it('reads a clothing size L that the rus model returned as Г, only after "размер"', () => {
    expect(cleanName('Халат медицинский одноразовый, размер Г')).toBe('Халат медицинский одноразовый, размер L');
    expect(itemName('Куртка рабочая размер ХГ')).toBe('Куртка рабочая размер XL');
    expect(cleanName('Бахилы размера Г, 100 пар')).toBe('Бахилы размера L, 100 пар');
    expect(cleanName('Мука пшеничная Г высший сорт')).toBe('Мука пшеничная Г высший сорт');
    expect(cleanName('Перчатки нитриловые, размер М')).toBe('Перчатки нитриловые, размер М');
  });

  it('drops a comma after the last word, keeps a final full stop and brackets', () => {
    expect(cleanName('Салфетки влажные 100 шт,')).toBe('Салфетки влажные 100 шт');
    expect(cleanName('Гвозди строительные 3х80 ;')).toBe('Гвозди строительные 3х80');
    expect(cleanName('Скоба 10 мм (уп.)')).toBe('Скоба 10 мм (уп.)');
    expect(cleanName('Перец черный молотый, 50 г.')).toBe('Перец черный молотый, 50 г.');
  });

  it('keeps the case of the first letter as read (names may begin lower-case)', () => {
    expect(cleanName('п/э пакет 30х40 см')).toBe('п/э пакет 30х40 см');
    expect(cleanName('картридж лазерный черный')).toBe('картридж лазерный черный');
  });

  it('restores °C, м², the spaced multiplication sign and Ø that the rus model reads as look-alikes', () => {
    expect(cleanName('Краска фасадная, до -30 °С')).toBe('Краска фасадная, до -30 °C');
    expect(cleanName('Плитка 30х30 см, упаковка 1,44 м?')).toBe('Плитка 30х30 см, упаковка 1,44 м²');
    expect(cleanName('Геотекстиль 200 г/м-, рулон 2х50 м')).toBe('Геотекстиль 200 г/м², рулон 2х50 м');
    expect(cleanName('Провод ПВС 3х2,5 мм? белый')).toBe('Провод ПВС 3х2,5 мм² белый');
    expect(cleanName('Лента малярная 38 ммх 40 м')).toBe('Лента малярная 38 мм х 40 м');
    expect(cleanName('Бинт 5 мх 10 см')).toBe('Бинт 5 м х 10 см');
    expect(cleanName('Отвод стальной @ 57 мм')).toBe('Отвод стальной Ø 57 мм');
    expect(cleanName('Диск алмазный © 230')).toBe('Диск алмазный Ø 230');
    // A sharpened scan reads the superscript as "г": no unit is "ммг" or "г/мг"; milligrams stay milligrams.
    expect(cleanName('Провод ПуГВ 1х4 ммг, красный')).toBe('Провод ПуГВ 1х4 мм², красный');
    expect(cleanName('Агроволокно 60 г/мг, 3,2х10 м')).toBe('Агроволокно 60 г/м², 3,2х10 м');
    expect(cleanName('Аскорбиновая кислота 50 мг, 200 шт')).toBe('Аскорбиновая кислота 50 мг, 200 шт');
  });

  it('knows a unit per unit, and nothing else with a slash', () => {
    for (const u of ['Вт/м', 'г/м²', 'кг/м³', 'л/мин', 'м/с']) expect(isUnitRatio(u), u).toBe(true);
    for (const u of ['б/г', 'Вт', '24/6', 'мм/мм/мм', 'купе/м']) expect(isUnitRatio(u), u).toBe(false);
  });

  it('reads a "$" ending a size chain as 5, "мых" before a figure as "мм х", and a point after a unit per unit as a comma', () => {
    expect(cleanName('Сетка фасадная 5х$ мм. 160 г/м². 1х50 м')).toBe('Сетка фасадная 5х5 мм, 160 г/м², 1х50 м');
    expect(cleanName('Лента клейкая 48 мых 50 м')).toBe('Лента клейкая 48 мм х 50 м');
    expect(cleanName('Кабель греющий 16 Вт/м. 10 м')).toBe('Кабель греющий 16 Вт/м, 10 м');
    // A "$" not after a size's sign, and "мых" not before a figure, stay.
    expect(cleanName('Товар $ES-10')).toBe('Товар $ES-10');
    expect(cleanName('Набор 5 мых игрушек')).toBe('Набор 5 мых игрушек');
    expect(cleanName('Выключатель `ABB Basic55, белый')).toBe('Выключатель ABB Basic55, белый');
  });

  it('reads мм whose two letters a blurred gap split with a vowel, only after a number', () => {
    expect(cleanName('Плинтус 2500х60х8 мам, дуб')).toBe('Плинтус 2500х60х8 мм, дуб');
    expect(cleanName('Саморез 4,2х25 мим')).toBe('Саморез 4,2х25 мм');
    expect(cleanName('Набор «Мам и пап», 2 шт')).toBe('Набор «Мам и пап», 2 шт');
    expect(cleanName('Подарок для мам')).toBe('Подарок для мам');
  });

  it('reads a bracket that ends a Latin code after its hyphen as the J both models lack, not one that closes a bracket', () => {
    expect(cleanName('Кабель NYM-} 3х1,5 мм²')).toBe('Кабель NYM-J 3х1,5 мм²');
    expect(cleanName('Кабель NUH-)')).toBe('Кабель NUH-J');
    expect(cleanName('Розетка компьютерная Я}-11, белая')).toBe('Розетка компьютерная RJ-11, белая');
    expect(cleanName('Коннектор Я|-45 (уп. 100 шт.)')).toBe('Коннектор RJ-45 (уп. 100 шт.)');
    expect(cleanName('Розетка компьютерная Я/-11, белая')).toBe('Розетка компьютерная RJ-11, белая');
    expect(cleanName('Коннектор R}-45 (уп. 100 шт.)')).toBe('Коннектор RJ-45 (уп. 100 шт.)');
    expect(cleanName('Патч-корд FTP B/-45, 1 м')).toBe('Патч-корд FTP RJ-45, 1 м');
    expect(cleanName('Хладагент B-410A, баллон')).toBe('Хладагент B-410A, баллон');
    expect(cleanName('Фреон R -22, баллон')).toBe('Фреон R -22, баллон');
    expect(cleanName('Модуль Я-45')).toBe('Модуль Я-45');
    expect(cleanName('Провод (марка ПВС-)')).toBe('Провод (марка ПВС-)');
    expect(cleanName('Кабель (NYM-)')).toBe('Кабель (NYM-)');
    expect(cleanName('Переходник (USB-C) черный')).toBe('Переходник (USB-C) черный');
  });

  it('reads "*" before C after a number as the degree sign, and "%" glued inside a size chain as its х', () => {
    expect(cleanName('Герметик силиконовый, от -40 до +120 *С')).toBe('Герметик силиконовый, от -40 до +120 °C');
    expect(cleanName('Пельмени замороженные, хранение при -18*C, 1 кг')).toBe('Пельмени замороженные, хранение при -18°C, 1 кг');
    expect(cleanName('Коробка картонная 40%30х20 см')).toBe('Коробка картонная 40х30х20 см');
    expect(cleanName('Коробка картонная 40х30%20 см')).toBe('Коробка картонная 40х30х20 см');
    // A percentage before a size, a percentage alone and an asterisk that marks a footnote stay as printed.
    expect(cleanName('Уксус столовый 9% 0,5 л')).toBe('Уксус столовый 9% 0,5 л');
    expect(cleanName('Пакет ПНД, скидка 5% 30х40 см')).toBe('Пакет ПНД, скидка 5% 30х40 см');
    expect(cleanName('Кабель UTP 4*2*0,5 м')).toBe('Кабель UTP 4*2*0,5 м');
    expect(cleanName('Тариф Стандарт*, Сервис')).toBe('Тариф Стандарт*, Сервис');
  });

  it('leaves ranges, glued sizes and e-mail-like text alone', () => {
    expect(cleanName('Труба 10 м-20 шт')).toBe('Труба 10 м-20 шт');
    expect(cleanName('Профиль 60х27 мм')).toBe('Профиль 60х27 мм');
    expect(cleanName('Подписка info@shop')).toBe('Подписка info@shop');
  });

  it('reads б/ and г/м² where the rus model gives 6/ and г/т?', () => {
    expect(cleanName('Минтай мороженый 6/г, 1 сорт')).toBe('Минтай мороженый б/г, 1 сорт');
    expect(cleanName('Насос (6/у) 2 шт')).toBe('Насос (б/у) 2 шт');
    expect(cleanName('Геотекстиль 150 г/т?')).toBe('Геотекстиль 150 г/м²');
    expect(cleanName('Пружина 16/20 мм')).toBe('Пружина 16/20 мм');
  });
});

describe('item names: a number sign inside a Latin code', () => {
  it('reads "№" glued between a Latin capital and a digit as the N the rus model lacks, and leaves number signs', () => {
    expect(itemName('Клемма WAGO FN№2041 серая')).toBe('Клемма WAGO FNN2041 серая');
    expect(itemName('Реле времени RK№7045')).toBe('Реле времени RKN7045');
    expect(itemName('Бланк заказа № 12/3')).toBe('Бланк заказа № 12/3');
    expect(itemName('Бланк №5 учётный')).toBe('Бланк №5 учётный');
  });
});

describe('item names: typography once the script is settled', () => {
  const nameOf = (text: string) =>
    rowToItem(new Map([['1а', { words: text.split(' ').map((t, i) => word(t, 100 + 120 * i, 500)), text }]]), FORMS.upd, 0, {}).name;

  it('reads "б/г" and "г/м²" that the rus+eng read returned with Latin look-alikes ("6/r", "r/m?")', () => {
    expect(nameOf('Скумбрия мороженая 6/r, 300-500 г')).toBe('Скумбрия мороженая б/г, 300-500 г');
    expect(nameOf('Плёнка укрывная 60 r/m?, 3х10 м')).toBe('Плёнка укрывная 60 г/м², 3х10 м');
  });

  it('reads a zero-led four-digit number back as the D the rus model lacks, and leaves other zeros', () => {
    expect(nameOf('Газобетон 0600 625х250х300')).toBe('Газобетон D600 625х250х300');
    expect(nameOf('Свеча Bosch 0 242 229 659')).toBe('Свеча Bosch 0 242 229 659');
    expect(nameOf('Смазка литиевая 0,400 кг')).toBe('Смазка литиевая 0,400 кг');
  });
});

describe('item names: zeros, fives and separators of photographed codes and sizes', () => {
  it('reads O beside digits of a model code as zero and S between digits as five, and leaves real letters', () => {
    expect(codeDigits('Фильтр HF2O1O5')).toBe('Фильтр HF20105');
    expect(codeDigits('Картридж CE5O5A')).toBe('Картридж CE505A');
    expect(codeDigits('Реле KR3S0O-M')).toBe('Реле KR3500-M');
    expect(codeDigits('Датчик Т-12О,')).toBe('Датчик Т-120,'); // Cyrillic О of a code read by the rus model
    expect(codeDigits('Тонер MLT-D111S')).toBe('Тонер MLT-D111S'); // S after the digits is a letter of the code
    expect(codeDigits('Резистор 10Ом')).toBe('Резистор 10Ом'); // Ом, the unit
    expect(codeDigits('Датчик O2 Bosch')).toBe('Датчик O2 Bosch');
    expect(codeDigits('ООО «Вектор»')).toBe('ООО «Вектор»');
    expect(codeDigits('Плитка SxS см')).toBe('Плитка 5х5 см');
    expect(codeDigits('Футболка XS')).toBe('Футболка XS');
  });

  it('on a photo takes every Russian-style decimal point for the comma, and keeps versions and Latin codes', () => {
    expect(itemName('Провод ПуГВ 1х2.5 мм, 100 м', true)).toBe('Провод ПуГВ 1х2,5 мм, 100 м');
    expect(itemName('Грунт 0.9 л', true)).toBe('Грунт 0,9 л');
    expect(itemName('Грунт 0.9 л')).toBe('Грунт 0.9 л'); // a scan reads the point that was printed
    expect(itemName('Кабель USB 3.0 AM-BM', true)).toBe('Кабель USB 3.0 AM-BM');
    expect(itemName('Адаптер Wi-Fi 802.11ac', true)).toBe('Адаптер Wi-Fi 802.11ac');
  });

  it('reads a short non-unit after a number as the only unit one look-alike letter away', () => {
    expect(unitLookalike('Вг')).toBe('Вт');
    expect(unitLookalike('п')).toBe('л');
    expect(unitLookalike('кг')).toBeNull();
    expect(unitLookalike('на')).toBeNull();
    expect(cleanName('Обогреватель 2000 Вг, белый')).toBe('Обогреватель 2000 Вт, белый');
    expect(cleanName('Антифриз G12 зелёный, 5 п')).toBe('Антифриз G12 зелёный, 5 л');
    expect(cleanName('Доска 6 на 2 м')).toBe('Доска 6 на 2 м');
  });

  it('reads points as the commas a blur shortened: after a unit or a code, before a standard, in "мы."', () => {
    expect(cleanName('Шнур 20 м. ПВХ')).toBe('Шнур 20 м, ПВХ');
    expect(cleanName('Кислота лимонная. ГОСТ 908-2004')).toBe('Кислота лимонная, ГОСТ 908-2004');
    expect(cleanName('Кольцо 25. ТУ 2500-001')).toBe('Кольцо 25, ТУ 2500-001');
    expect(cleanName('Фреза 12 мы. хвостовик 8')).toBe('Фреза 12 мм, хвостовик 8');
    expect(cleanName('Кирпич М200. полнотелый')).toBe('Кирпич М200, полнотелый');
    expect(cleanName('Роутер AX30-EU. 2 антенны')).toBe('Роутер AX30-EU, 2 антенны');
    expect(cleanName('Плита 1200х600ж50 мм')).toBe('Плита 1200х600х50 мм');
    expect(cleanName('Грунт до +150 °C. бесцветный')).toBe('Грунт до +150 °C, бесцветный');
    // A year, pieces and abbreviations keep their point.
    expect(cleanName('Календарь 2027 г. настенный')).toBe('Календарь 2027 г. настенный');
    expect(cleanName('Скрепки (уп. 100 шт.)')).toBe('Скрепки (уп. 100 шт.)');
    expect(cleanName('Сверло ст. 5 мм')).toBe('Сверло ст. 5 мм');
  });

  it('closes a round bracket that photo OCR closed with } or ], reads a lone $ as 5 and a quote after м as ²', () => {
    expect(cleanName('Скрепки (уп. 100 шт.}')).toBe('Скрепки (уп. 100 шт.)');
    expect(cleanName('Набор (2 шт]')).toBe('Набор (2 шт)');
    expect(cleanName('Пакет (уп. 50 шт.)')).toBe('Пакет (уп. 50 шт.)');
    expect(cleanName('Фломастеры, $ цветов')).toBe('Фломастеры, 5 цветов');
    expect(cleanName('Сувенир $100')).toBe('Сувенир $100');
    expect(cleanName("Плёнка 200 г/м', 3х10 м")).toBe('Плёнка 200 г/м², 3х10 м');
    expect(cleanName('Профлист 12 м’')).toBe('Профлист 12 м²');
  });

  it('reads the multiplication sign a blur turned into "к" or a backslash, and a size with б for 6 and к for х', () => {
    expect(cleanName('Лента 25 мм к 10 м')).toBe('Лента 25 мм х 10 м');
    expect(cleanName('Экран 1366\\768')).toBe('Экран 1366х768');
    expect(itemName('Плитка «Мрамор» бООх3О0к8 мм', true)).toBe('Плитка «Мрамор» 600х300х8 мм');
    // "к" as a preposition, a word with б and к, a size without a true multiplication sign, an asterisk note.
    expect(cleanName('Переходник 1/2 к 3/4')).toBe('Переходник 1/2 к 3/4');
    expect(itemName('Плитка бок 2х3', true)).toBe('Плитка бок 2х3');
    // Without a true multiplication sign the б stays a letter; the к glued between figures is one (name-rules.ts).
    expect(itemName('Брус б0к40', true)).toBe('Брус б0х40');
    expect(cleanName('Кабель UTP 4*2*0,5')).toBe('Кабель UTP 4*2*0,5'); // an asterisk may be printed …
    expect(itemName('Кабель ВВГ 3*2,5 мм²', true)).toBe('Кабель ВВГ 3х2,5 мм²'); // … a photo's is a blurred х
  });

  it('reads кг whose г was lost, a unit per unit whose slash became у, and м² whose superscript became a colon or a quote', () => {
    expect(cleanName('Цемент М500, 25 к')).toBe('Цемент М500, 25 кг');
    expect(cleanName('Песок (мешок 40 к)')).toBe('Песок (мешок 40 кг)');
    expect(cleanName('Лента греющая 24 Втум')).toBe('Лента греющая 24 Вт/м');
    expect(cleanName('Картон 250 гум², белый')).toBe('Картон 250 г/м², белый');
    expect(cleanName('Плёнка 10 м:')).toBe('Плёнка 10 м²');
    expect(cleanName('Сетка 1,5 мм:, рулон')).toBe('Сетка 1,5 мм², рулон');
    expect(itemName('Провод 2х2,5 мы"')).toBe('Провод 2х2,5 мм²');
    // A word with у between letters that is no unit ratio, and a colon before a text stay.
    expect(cleanName('Набор 3 шт, 5 друзей')).toBe('Набор 3 шт, 5 друзей');
    expect(cleanName('Табличка 20 см: Выход')).toBe('Табличка 20 см: Выход');
  });

  it('reads a length unit the eng reading returned in Latin after a number of a Russian name', () => {
    expect(itemName('Провод ПВС 2х0,75 mm?')).toBe('Провод ПВС 2х0,75 мм²');
    expect(itemName('Лента 50 m, белая')).toBe('Лента 50 м, белая');
    expect(itemName('Lens 55mm')).toBe('Lens 55mm'); // no Russian word: stays Latin
    expect(itemName('Картридж 12 mmol')).toBe('Картридж 12 mmol');
  });

  it('reads a 4 the blur made "&" between Russian words, and keeps "&" in a brand', () => {
    expect(cleanName('Тройник на & отвода')).toBe('Тройник на 4 отвода');
    expect(cleanName('Шампунь Head & Shoulders')).toBe('Шампунь Head & Shoulders');
  });

  it('on a photo puts back the space between a number and a lower-case unit, not before capital symbols', () => {
    expect(itemName('Эмаль белая, 2,5л', true)).toBe('Эмаль белая, 2,5 л');
    expect(itemName('Провод 3х1,5мм², 50м', true)).toBe('Провод 3х1,5 мм², 50 м');
    expect(itemName('Лампа 220В 4000К', true)).toBe('Лампа 220В 4000К');
    expect(itemName('Бетон М300 товарный', true)).toBe('Бетон М300 товарный');
    expect(itemName('Эмаль белая, 2,5л')).toBe('Эмаль белая, 2,5л'); // a clean print's glued unit is what it says
  });
});
