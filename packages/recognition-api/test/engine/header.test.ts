import { describe, expect, it } from 'vitest';
import {
  BORROWED_ID_CONFIDENCE,
  caption,
  extractTorg12Header,
  parsePartyWords,
  partyLine,
  TWIN_NAME_CONFIDENCE,
} from '../../src/engine/extract/header-torg12.js';
import { joinName, splitInnKpp, taxIdRole } from '../../src/engine/extract/header.js';
import { extractUpdHeader } from '../../src/engine/extract/header-upd.js';
import { groupLines } from '../../src/engine/extract/words.js';
import { generateTruth, partyLine as printedParty, type PartyStyle } from '@app/docgen';
import { row, word } from './fixtures.js';

describe('TORG-12 party lines', () => {
  it('reads "name, ИНН, КПП, address" after the caption, cutting bank details', () => {
    const lines = groupLines(
      row(300, [
        [100, 'Поставщик'],
        [400, 'ООО «Агроснаб», ИНН 7714280050, КПП 771401001, 125040, г. Москва, ул. Пушкина, д. 107, р/с 40702810'],
      ]),
    );
    const party = parsePartyWords(partyLine(lines, [/^Поставщик:?$/i]), 'seller', {});
    expect(party).toEqual({ name: 'ООО «Агроснаб»', inn: '7714280050', kpp: '771401001', address: '125040, г. Москва, ул. Пушкина, д. 107' });
  });

  it('takes name and INN from the line above the caption when 1C wraps them there', () => {
    const lines = groupLines([
      ...row(250, [[400, 'ООО "Золотая антилопа", ИНН 1111111, 117587, Москва г, р/с 4070']]),
      ...row(300, [
        [100, 'Поставщик'],
        [400, '1111111111, в банке ЗАО "Утиные истории"'],
      ]),
    ]);
    const party = parsePartyWords(partyLine(lines, [/^Поставщик:?$/i]), 'seller', {});
    // A 7-digit INN is returned as printed; validation reports its length.
    expect(party).toEqual({ name: 'ООО "Золотая антилопа"', inn: '1111111', kpp: null, address: '117587, Москва г' });
  });
});

describe('TORG-12 party lines as 1C prints them with bank details', () => {
  const party = (text: string) =>
    parsePartyWords(
      partyLine(
        groupLines(
          row(300, [
            [100, 'Поставщик'],
            [400, text],
          ]),
        ),
        [/^Поставщик:?$/i],
      ),
      'seller',
      {},
    );

  it('splits name, INN, KPP, address and skips р/с, bank, БИК and к/с', () => {
    expect(
      party(
        'АО «Северный кабельный завод», ИНН 5321049382, КПП 532101001, 173003, Новгородская обл, Великий Новгород г, Щитная ул, дом 9, р/с 40702810243050001478, в банке ПАО «Банк Восток», БИК 044959698, к/с 30101810100000000698',
      ),
    ).toEqual({
      name: 'АО «Северный кабельный завод»',
      inn: '5321049382',
      kpp: '532101001',
      address: '173003, Новгородская обл, Великий Новгород г, Щитная ул, дом 9',
    });
  });

  it('reads "ИНН/КПП x/y", with the slash as its own word too', () => {
    expect(party('ООО "Лесопилка-Урал", ИНН/КПП 6671098834/667101001, 620014, г. Екатеринбург, ул. Малышева, д. 5')).toMatchObject({
      name: 'ООО "Лесопилка-Урал"',
      inn: '6671098834',
      kpp: '667101001',
      address: '620014, г. Екатеринбург, ул. Малышева, д. 5',
    });
    expect(party('ООО «Вектор», ИНН/КПП 6671098834 / 667101001, р/с 40702810900000004321')).toMatchObject({ inn: '6671098834', kpp: '667101001' });
  });

  it('never takes a 20-digit account for the name or the INN', () => {
    // The name and INN wrapped away: only bank details are on the caption line.
    const p = party('р/с 40702810500000012345, в банке АО «Региобанк», БИК 046577964, к/с 30101810500000000964');
    expect(p.name).toBeNull();
    expect(p.inn).toBeNull();
    expect(p.kpp).toBeNull();
    // An account printed before the labels (no р/с caption read) is dropped from the name.
    expect(party('ИП Карпов Олег Ильич 40802810100000054321, ИНН 772816843592')).toMatchObject({
      name: 'ИП Карпов Олег Ильич',
      inn: '772816843592',
      kpp: null,
    });
  });

  it('reads a value OCR glued to its label and an address with "в" in it', () => {
    expect(party('ООО «Нива», ИНН3604012345, КПП360401001, 397160, Воронежская обл, г. Борисоглебск, пос. в Лесу, р/с 40702810')).toEqual({
      name: 'ООО «Нива»',
      inn: '3604012345',
      kpp: '360401001',
      address: '397160, Воронежская обл, г. Борисоглебск, пос. в Лесу',
    });
  });
});

describe('TORG-12 party lines of the docgen generator in 1C style (tuning seeds 20000+)', () => {
  it.each<PartyStyle>(['1c-bank', 'inn-kpp-pair'])('%s: every party parses into name, INN, KPP and address', (style) => {
    for (let seed = 20000; seed < 20040; seed++) {
      const { truth } = generateTruth({ seed, type: 'torg12', tier: 'scan', lines: 1 });
      for (const p of [truth.seller, truth.buyer]) {
        const lines = groupLines(
          row(300, [
            [100, 'Поставщик'],
            [400, printedParty(p, style)],
          ]),
        );
        expect(parsePartyWords(partyLine(lines, [/^Поставщик:?$/i]), 'seller', {}), `seed ${seed}`).toEqual({
          name: p.name,
          inn: p.inn,
          kpp: p.kpp,
          address: p.address,
        });
      }
    }
  });
});

describe('document dates printed in words', () => {
  const updHeader = (dateText: string) =>
    groupLines([
      ...row(200, [
        [100, 'Счёт-фактура № 512 от'],
        [560, dateText],
        [1500, '(1)'],
      ]),
      ...row(260, [
        [100, 'Продавец:'],
        [400, 'ООО «Север»'],
        [1500, '(2)'],
      ]),
    ]);

  it.each([
    ['«12» марта 2026 г.', '12.03.2026'],
    ['"7" мая 2025', '07.05.2025'],
    ['12 март 2026', '12.03.2026'],
    ['«12 » марта 2026 г.', '12.03.2026'],
    ['05.02.2026', '05.02.2026'],
  ])('UPD/invoice line (1) "от %s" → %s, number kept', (dateText, want) => {
    const conf: Record<string, number> = {};
    const h = extractUpdHeader(updHeader(dateText), conf);
    expect(h.number).toBe('512');
    expect(h.date).toBe(want);
    expect(conf['document.date']).toBeGreaterThan(0.9);
  });

  it('TORG-12 number box with the date in words under "Дата составления"', () => {
    const lines = groupLines([
      ...row(200, [
        [1800, 'Номер документа'],
        [2300, 'Дата составления'],
      ]),
      ...row(250, [
        [900, 'ТОВАРНАЯ НАКЛАДНАЯ'],
        [1850, 'УТ-00412'],
        [2250, '«3» апреля 2026 г.'],
      ]),
    ]);
    const h = extractTorg12Header(lines, {});
    expect(h.number).toBe('УТ-00412');
    expect(h.date).toBe('03.04.2026');
  });

  it('TORG-12 number box whose caption a grey scan garbled ("Номер док)")', () => {
    const lines = groupLines([
      ...row(200, [[1800, 'Номер док)']]),
      ...row(250, [
        [900, 'ТОВАРНАЯ НАКЛАДНАЯ'],
        [1850, '415'],
        [2250, '11.02.2026'],
      ]),
    ]);
    const h = extractTorg12Header(lines, {});
    expect(h.number).toBe('415');
    expect(h.date).toBe('11.02.2026');
  });

  it('TORG-12 number and date beside the title when no caption of the box was read', () => {
    const lines = groupLines(
      row(250, [
        [900, 'ТОВАРНАЯ НАКЛАДНАЯ'],
        [1850, 'БП-0093'],
        [2250, '28.05.2026'],
      ]),
    );
    const h = extractTorg12Header(lines, {});
    expect(h.number).toBe('БП-0093');
    expect(h.date).toBe('28.05.2026');
  });

  it('UPD seller name by the form\'s order when the caption "Продавец:" was not read', () => {
    const lines = groupLines([
      ...row(200, [
        [600, 'Счет-фактура № 77 от 02.03.2026'],
        [2000, '(1)'],
      ]),
      ...row(260, [
        [1550, 'ООО «Таёжный терем»'],
        [3300, '(2)'],
      ]),
      ...row(320, [
        [600, 'Адрес:'],
        [1550, '660017, г. Красноярск, ул. Ленина, д. 5'],
        [3300, '(2а)'],
      ]),
      ...row(380, [
        [600, 'ИНН/КПП продавца:'],
        [1550, '2466000018/246601001'],
        [3300, '(2б)'],
      ]),
    ]);
    const h = extractUpdHeader(lines, {});
    expect(h.seller).toEqual({
      name: 'ООО «Таёжный терем»',
      inn: '2466000018',
      kpp: '246601001',
      address: '660017, г. Красноярск, ул. Ленина, д. 5',
    });
  });

  it('UPD date after "от" not split by the dashes of the empty correction line (1а) below', () => {
    const caption = row(128, [[573, 'Счет-фактура № УТ-2183 от 13 декабря 2025 г.']]).map((w) => ({ ...w, height: 43 }));
    // The dashes of line (1а) sit 41–43 px lower, just under one caption height.
    const dashes = [word('-', 1054, 190), word('-', 1668, 190)].map((w) => ({ ...w, width: 9, height: 3 }));
    const correction = row(178, [[575, 'Исправление № от']]).map((w) => ({ ...w, height: 38 }));
    const h = extractUpdHeader(groupLines([...caption, ...dashes, ...correction]), {});
    expect(h.number).toBe('УТ-2183');
    expect(h.date).toBe('13.12.2025');
  });

  it("UPD party name of digits only is no name (another row's value taken by position)", () => {
    const lines = groupLines([
      ...row(200, [
        [600, 'Счет-фактура № 77 от 02.03.2026'],
        [2000, '(1)'],
      ]),
      ...row(260, [
        [1550, '2466000018 246601001'],
        [3300, '(2)'],
      ]),
      ...row(320, [
        [600, 'Адрес:'],
        [1550, '660017, г. Красноярск, ул. Ленина, д. 5'],
      ]),
      ...row(380, [
        [600, 'ИНН/КПП продавца:'],
        [1550, '2466000018/246601001'],
      ]),
    ]);
    const conf: Record<string, number> = {};
    const h = extractUpdHeader(lines, conf);
    expect(h.seller.name).toBeNull();
    expect(conf['seller.name']).toBe(0);
    expect(h.seller.inn).toBe('2466000018');
  });
});

describe('UPD tax-id lines whose role word a photo garbled', () => {
  it('knows "продавца" and "покупателя" within three edits, and no other word', () => {
    expect(['прадлжца:', 'продавца:', 'Продавец:'].map(taxIdRole)).toEqual(['seller', 'seller', 'seller']);
    expect(['рокупателя:', 'покупателя'].map(taxIdRole)).toEqual(['buyer', 'buyer']);
    expect(['Грузополучатель', 'продукты', 'пп', 'адрес'].map(taxIdRole)).toEqual([null, null, null, null]);
  });

  it("reads the buyer's INN from a line whose label and role word are both garbled", () => {
    const lines = groupLines([
      ...row(200, [[600, 'Счет-фактура № 77 от 02.03.2026']]),
      ...row(260, [
        [124, 'Покупатель:'],
        [1550, 'ИП Тихонов Олег Ильич'],
      ]),
      ...row(320, [
        [128, 'ИННКПИ рокупателя:'],
        [1550, '500100732259'],
        [3300, '(6б)'],
      ]),
    ]);
    expect(extractUpdHeader(lines, {}).buyer).toMatchObject({ name: 'ИП Тихонов Олег Ильич', inn: '500100732259' });
  });
});

describe('document number prefixes read by rus+eng', () => {
  it('look-alike Latin capitals before "-digits" are the Cyrillic 1C prefix; a Latin-only prefix stays', async () => {
    const { fixNumberPrefix } = await import('../../src/engine/extract/header.js');
    expect(fixNumberPrefix('PH-00412')).toBe('РН-00412');
    expect(fixNumberPrefix('YT,03828')).toBe('УТ-03828');
    expect(fixNumberPrefix('УТ.4410-')).toBe('УТ-4410'); // the field's underline read after the number
    expect(fixNumberPrefix('5881_')).toBe('5881');
    expect(fixNumberPrefix('ЦБ-00017')).toBe('ЦБ-00017');
    expect(fixNumberPrefix('INV-7')).toBe('INV-7');
    expect(fixNumberPrefix('5881')).toBe('5881');
  });

  it('a prefix of a capital and a digit that looks like one is two capitals; digit prefixes stay', async () => {
    const { fixNumberPrefix } = await import('../../src/engine/extract/header.js');
    expect(fixNumberPrefix('Т6-00154')).toBe('ТБ-00154');
    expect(fixNumberPrefix('0Т-215')).toBe('ОТ-215');
    expect(fixNumberPrefix('К3-77')).toBe('КЗ-77');
    expect(fixNumberPrefix('00-00154')).toBe('00-00154');
    expect(fixNumberPrefix('А1-00154')).toBe('А1-00154');
    expect(fixNumberPrefix('167/4')).toBe('167/4');
  });
});

describe('party names as a blurred photo reads them', () => {
  const name = (text: string) => joinName(text.split(' ').map((t, i) => word(t, 100 + i * 200, 300)));
  it('a legal form one letter off is the only known form that near; two near forms settle nothing', async () => {
    const { nearestLegalForm } = await import('../../src/engine/extract/header.js');
    expect(name('ПАЮ «Северный мост»')).toBe('ПАО «Северный мост»');
    expect(name('ЗЛО «Северный мост»')).toBe('ЗАО «Северный мост»');
    expect(name('ООО «Северный мост»')).toBe('ООО «Северный мост»');
    expect(nearestLegalForm('ОЗО')).toBe('ОЗО');
    // Only before a quoted name: capitals opening another kind of name are left alone.
    expect(name('ТЛО Сервис')).toBe('ТЛО Сервис');
  });

  it('a legal form with a zero or a round letter for its О is the form whose letters a photo blurs into those read', async () => {
    const { nearestLegalForm } = await import('../../src/engine/extract/header.js');
    expect(name('0СО «Северный мост»')).toBe('ООО «Северный мост»');
    expect(name('О0О «Северный мост»')).toBe('ООО «Северный мост»');
    expect(name('0АО «Северный мост»')).toBe('ОАО «Северный мост»');
    // `С` is a blurred `О`, not an `А`: of ООО and ОАО one letter away, only ООО.
    expect(nearestLegalForm('ОСО')).toBe('ООО');
    // A zero in capitals that are no legal form stays a zero.
    expect(name('Т0Л «Северный мост»')).toBe('Т0Л «Северный мост»');
  });

  it('a speck glued to the closing quote that ends a name is dropped; a name going on after its quote is kept', async () => {
    const { nameOf } = await import('../../src/engine/extract/header.js');
    expect(nameOf('ООО «Северный мост»ь')).toBe('ООО «Северный мост»');
    expect(nameOf('Общество с ограниченной ответственностью «Мост-Опт»®')).toBe('Общество с ограниченной ответственностью «Мост-Опт»');
    expect(nameOf("АО «Мост»'.")).toBe('АО «Мост»');
    expect(nameOf('ООО «Мост» М')).toBe('ООО «Мост» М');
    expect(nameOf('ООО «Мост»-Юг')).toBe('ООО «Мост»-Юг');
    expect(nameOf('ООО «Мост» (Тула)')).toBe('ООО «Мост» (Тула)');
  });

  it("an individual entrepreneur's patronymic read with и for its н is the -овна/-евна it is", async () => {
    const { nameOf } = await import('../../src/engine/extract/header.js');
    expect(nameOf('ИП Смирнова Анна Сергеевиа')).toBe('ИП Смирнова Анна Сергеевна');
    expect(nameOf('Индивидуальный предприниматель Орлова Мария Петровиа')).toBe('Индивидуальный предприниматель Орлова Мария Петровна');
    expect(nameOf('ИП Смирнова Анна Сергеевна')).toBe('ИП Смирнова Анна Сергеевна');
    // Not in a company's name.
    expect(nameOf('ООО «Петровиа»')).toBe('ООО «Петровиа»');
  });

  it('digit zeros for the ООО and a colon inside a word are read as printed', () => {
    expect(name('000 Северный мост')).toBe('ООО Северный мост');
    expect(name('ООО «Вектор:-Плюс»')).toBe('ООО «Вектор-Плюс»');
    expect(name('ООО «Вектор», г. Тула: склад')).toBe('ООО «Вектор», г. Тула: склад');
  });

  it('a spelled-out legal form with a few letters garbled is the form as the law spells it; a stray quote before « goes', () => {
    expect(name('Общество © ограниченной ответственностью „«Северный мост»')).toBe('Общество с ограниченной ответственностью «Северный мост»');
    expect(name('Общество с ограмиченной ответствениостью «Мост»')).toBe('Общество с ограниченной ответственностью «Мост»');
    expect(name('Акционервое общество «Мост»')).toBe('Акционерное общество «Мост»');
    expect(name('Индивидуальный предприниматель Зуев Олег Ильич')).toBe('Индивидуальный предприниматель Зуев Олег Ильич');
    // Other words at the start are not a legal form, and a form alone is not changed.
    expect(name('Общественная организация «Мост»')).toBe('Общественная организация «Мост»');
    expect(name('Акционерное обшество')).toBe('Акционерное обшество');
    // Two forms two letters apart: an exact one stays, one near both is left as read.
    expect(name('Открытое акционерное общество «Мост»')).toBe('Открытое акционерное общество «Мост»');
    expect(name('Закрытое акционерное общество «Мост»')).toBe('Закрытое акционерное общество «Мост»');
    expect(name('Публичное акционерное общество «Мост»')).toBe('Публичное акционерное общество «Мост»');
    expect(name('Зткрытое акционерное общество «Мост»')).toBe('Зткрытое акционерное общество «Мост»');
  });
});

describe('UPD INN/KPP pair read from a photo', () => {
  it('splits a pair whose slash was read as a digit or lost, by the INN check digits', () => {
    expect(splitInnKpp('6164062127/616401001')).toEqual(['6164062127', '616401001']);
    expect(splitInnKpp('61640621271616401001')).toEqual(['6164062127', '616401001']);
    expect(splitInnKpp('6164062127616401001')).toEqual(['6164062127', '616401001']);
    expect(splitInnKpp('7707083893')).toEqual(['7707083893', undefined]);
  });
});

describe('TORG-12 party name printed twice (Поставщик and Грузоотправитель)', () => {
  const withConf = (ws: ReturnType<typeof row>, name: string, conf: number) => ws.map((w) => (name.includes(w.text) ? { ...w, conf } : w));
  const lines = (supplier: string, consignor: string, conf = 86) =>
    groupLines([
      ...withConf(
        row(300, [
          [100, 'Грузоотправитель'],
          [500, `${consignor}, ИНН 7707083893, г. Тверь, ул. Лесная, д. 5`],
        ]),
        consignor,
        97,
      ),
      ...withConf(
        row(400, [
          [100, 'Поставщик'],
          [500, `${supplier}, ИНН 7707083893, г. Тверь, ул. Лесная, д. 5`],
        ]),
        supplier,
        conf,
      ),
      ...withConf(
        row(500, [
          [100, 'Плательщик'],
          [500, 'ООО «Сфера», ИНН 7736207543'],
        ]),
        'ООО «Сфера»,',
        80,
      ),
    ]);

  it('raises the name to 0.95 when both lines read the same name', () => {
    const conf: Record<string, number> = {};
    const h = extractTorg12Header(lines('ООО «Вереск»', 'ООО «Вереск»'), conf);
    expect(h.seller.name).toBe('ООО «Вереск»');
    expect(conf['seller.name']).toBe(TWIN_NAME_CONFIDENCE);
  });

  it('keeps the read confidence when the two names differ or there is only one line', () => {
    const conf: Record<string, number> = {};
    extractTorg12Header(lines('ООО «Вереск»', 'ООО «Верест»'), conf);
    expect(conf['seller.name']).toBe(0.86);
    // No Грузополучатель line: the buyer's name keeps its own 0.80.
    expect(conf['buyer.name']).toBe(0.8);
    // A Latin letter the rus model may misread the same way in both lines: no raise.
    const latin: Record<string, number> = {};
    extractTorg12Header(lines('ООО «Вереск Z»', 'ООО «Вереск Z»'), latin);
    expect(latin['seller.name']).toBe(0.86);
    // A point after the name in both lines is a speck or punctuation read twice, not evidence.
    const point: Record<string, number> = {};
    extractTorg12Header(lines('ИП Зуев Олег Ильич.', 'ИП Зуев Олег Ильич.'), point);
    expect(point['seller.name']).toBe(0.86);
  });
});

describe('TORG-12 party lines of a blurred photo', () => {
  const party = (captionText: string, text: string, label = caption('поставщик')) =>
    parsePartyWords(
      partyLine(
        groupLines(
          row(300, [
            [100, captionText],
            [400, text],
          ]),
        ),
        [label],
      ),
      'seller',
      {},
    );

  it('finds a caption read with up to two letters garbled', () => {
    expect(party('Поставщнк', 'ООО «Гранит», ИНН 7707083893, КПП 770701001').inn).toBe('7707083893');
    expect(party('Пставщик:', 'ООО «Гранит», ИНН 7707083893, КПП 770701001').kpp).toBe('770701001');
    expect(party('Платеяьщик', 'ООО «Гранит», ИНН 7707083893', caption('плательщик')).name).toBe('ООО «Гранит»');
    expect(party('Грузополуматель', 'ООО «Гранит», ИНН 7707083893', caption('грузополучатель')).name).toBe('ООО «Гранит»');
  });

  it('does not take another caption or a word three letters off for it', () => {
    expect(party('Плательщик', 'ООО «Гранит», ИНН 7707083893').name).toBeNull();
    expect(party('Пастащиа', 'ООО «Гранит», ИНН 7707083893').name).toBeNull();
    expect(caption('грузоотправитель').test('Грузополучатель')).toBe(false);
  });

  it('drops a point read after the closing quote (the comma before ИНН), not one an initial ends with', () => {
    expect(party('Поставщик', 'ООО «Гранит». ИНН 7707083893').name).toBe('ООО «Гранит»');
    expect(party('Поставщик', 'ИП Зуев О.И., ИНН 770708389312').name).toBe('ИП Зуев О.И.');
  });

  it('reads on over a word the OCR lost inside the line', () => {
    const lines = groupLines([
      // 30 px text: the lost word leaves a gap of more than five text heights.
      ...row(300, [
        [400, 'АО «Северная'],
        [770, 'фабрика», ИНН 7707083893, КПП 770701001'],
      ]),
      ...row(345, [
        [100, 'Поставщик'],
        [400, 'р/с 40702810000000000001'],
      ]),
    ]);
    const p = parsePartyWords(partyLine(lines, [caption('поставщик')]), 'seller', {});
    expect(p).toMatchObject({ name: 'АО «Северная фабрика»', inn: '7707083893', kpp: '770701001' });
  });
});

describe('TORG-12 party name printed twice on a phone photo', () => {
  it('is not raised: the same blur misreads the same glyph in both prints', () => {
    const lines = groupLines(
      [
        ...row(300, [
          [100, 'Грузоотправитель'],
          [500, 'ООО «Козторг», ИНН 7707083893'],
        ]),
        ...row(400, [
          [100, 'Поставщик'],
          [500, 'ООО «Козторг», ИНН 7707083893'],
        ]),
      ].map((w) => ({ ...w, conf: 80 })),
    );
    const scan: Record<string, number> = {};
    extractTorg12Header(lines, scan);
    expect(scan['seller.name']).toBe(TWIN_NAME_CONFIDENCE);
    const photo: Record<string, number> = {};
    extractTorg12Header(lines, photo, true);
    expect(photo['seller.name']).toBe(0.8);
  });
});

describe('TORG-12 tax ids from the twin line', () => {
  const lines = (payer: string, consignee: string) =>
    groupLines([
      ...row(300, [
        [100, 'Грузополучатель'],
        [500, consignee],
      ]),
      ...row(400, [
        [100, 'Плательщик'],
        [500, payer],
      ]),
    ]);

  it('takes INN and KPP from Грузополучатель when the payer line reads an INN that fails, for the same organisation', () => {
    const conf: Record<string, number> = {};
    const h = extractTorg12Header(lines('ООО «Сфера», ИНН 77070833893', 'ООО «Сфера», ИНН 7707083893, КПП 773601001'), conf);
    expect(h.buyer).toMatchObject({ name: 'ООО «Сфера»', inn: '7707083893', kpp: '773601001' });
    expect(conf['buyer.inn']).toBe(BORROWED_ID_CONFIDENCE);
  });

  it('keeps a payer INN that passes, and borrows nothing from another organisation', () => {
    const own = extractTorg12Header(lines('ООО «Сфера», ИНН 7736207543', 'ООО «Сфера», ИНН 7707083893'), {});
    expect(own.buyer.inn).toBe('7736207543');
    const other = extractTorg12Header(lines('ООО «Сфера», ИНН 77070833893', 'АО «Гранит-Логистика», ИНН 7707083893'), {});
    expect(other.buyer.inn).not.toBe('7707083893');
  });
});
