/**
 * Russian text for the validator's and engine's warnings (engine/validate, engine/extract, engine/ocr), which the
 * API returns in English. The panel shows the Russian sentence; a message no rule knows is shown as it is (a new
 * warning added to the engine is never hidden, only untranslated).
 */
const RULES: [RegExp, (...m: string[]) => string][] = [
  [/^INN is empty$/, () => 'ИНН не заполнен'],
  [/^INN "(.*)" must have 10 or 12 digits$/, (v) => `ИНН «${v}» должен состоять из 10 или 12 цифр`],
  [/^INN "(.*)" fails its check digit$/, (v) => `ИНН «${v}»: не сходится контрольная цифра`],
  [/^KPP "(.*)" must be 9 characters NNNNXXNNN$/, (v) => `КПП «${v}» должен состоять из 9 знаков (NNNNXXNNN)`],
  [/^document date is empty$/, () => 'Дата документа не заполнена'],
  [/^date "(.*)" is not a valid DD\.MM\.YYYY date$/, (v) => `Дата «${v}» не является датой в формате ДД.ММ.ГГГГ`],
  [/^document number is empty$/, () => 'Номер документа не заполнен'],
  [/^total with VAT is empty$/, () => 'Итог с НДС не заполнен'],
  [/^total without VAT is empty$/, () => 'Итог без НДС не заполнен'],
  [/^VAT total is empty$/, () => 'Итог НДС не заполнен'],
  [/^total (\S+) ≠ sum of lines (\S+)$/, (a, b) => `Итог ${a} не равен сумме строк ${b}`],
  [/^amount without VAT (\S+) \+ VAT (\S+) ≠ amount with VAT (\S+)$/, (a, b, c) => `Сумма без НДС ${a} + НДС ${b} ≠ сумме с НДС ${c}`],
  [/^quantity (\S+) × price (\S+) ≠ amount without VAT (\S+)$/, (a, b, c) => `Количество ${a} × цена ${b} ≠ сумме без НДС ${c}`],
  [/^line is "без НДС" but carries VAT (\S+)$/, (a) => `Строка «без НДС», но указан НДС ${a}`],
  [/^VAT rate is missing/, () => 'Не указана ставка НДС (ни ставки, ни «без НДС»)'],
  [
    /^VAT rate (\S+)% is not in force on the document date \(allowed: (.*)%\)$/,
    (a, b) => `Ставка НДС ${a}% не действует на дату документа (допустимы: ${b}%)`,
  ],
  [/^VAT (\S+) ≠ (\S+)% of (\S+)$/, (a, b, c) => `НДС ${a} ≠ ${b}% от ${c}`],
  [/^unknown OKEI unit code "(.*)"$/, (a) => `Неизвестный код единицы по ОКЕИ «${a}»`],
  [/^unit "(.*)" does not match OKEI code (\S+)$/, (a, b) => `Единица «${a}» не соответствует коду ОКЕИ ${b}`],
  [/^no text found on this page$/, () => 'На странице не найден текст'],
  [/^type not recognised; read as a UPD$/, () => 'Тип документа не определён; прочитан как УПД'],
  [/^item table \(column-number row\) not found$/, () => 'Таблица товаров (строка с номерами граф) не найдена'],
  [/^line number (\S+) is out of sequence \(expected (\S+)\)$/, (a, b) => `Номер строки ${a} нарушает порядок (ожидался ${b})`],
  [
    /^read (\S+), the line arithmetic gives (\S+) \(one misread digit\); corrected$/,
    (a, b) => `Прочитано ${a}, по арифметике строки ${b} (ошибка в одной цифре); исправлено`,
  ],
  [
    /^read (\S+), the line arithmetic gives (\S+) \(decimal separator lost\); corrected$/,
    (a, b) => `Прочитано ${a}, по арифметике строки ${b} (потерян десятичный разделитель); исправлено`,
  ],
  [
    /^read (\S+), the sum of the lines gives (\S+) \(one misread digit\); corrected$/,
    (a, b) => `Прочитано ${a}, сумма строк даёт ${b} (ошибка в одной цифре); исправлено`,
  ],
  [/^page was turned (\S+)° to read it$/, (a) => `Страница повёрнута на ${a}° для чтения`],
  [
    /^printed (\S+), the lines read sum to (\S+) \(one digit apart: a misread digit or a line not read\); kept as printed$/,
    (a, b) => `Напечатано ${a}, сумма прочитанных строк ${b} (разница в одной цифре: ошибка чтения или пропущенная строка); оставлено как напечатано`,
  ],
  [/^(quantity|price|amount without VAT|amount with VAT|VAT amount) is empty$/, (a) => `${EMPTY_FIELD[a]} не заполнено`],
  [
    /^(document number|seller name|buyer name|item name) read with low confidence \((\S+)\); check it against the page$/,
    (a, b) => `${DOUBTFUL_FIELD[a]} прочитано неуверенно (${b}); сверьте с документом`,
  ],
  [
    /^corrective document \(УКД \/ корректировочный счёт-фактура\): not supported; its lines and totals were not read$/,
    () => 'Корректировочный документ (УКД / корректировочный счёт-фактура) не поддерживается; строки и итоги не прочитаны',
  ],
  [
    /^revision № (\S+) \(line 1а\): this document replaces an earlier one$/,
    (a) => `Исправление № ${a} (строка 1а): документ заменяет ранее выставленный`,
  ],
];

const EMPTY_FIELD: Record<string, string> = {
  quantity: 'Количество',
  price: 'Цена',
  'amount without VAT': 'Сумма без НДС',
  'amount with VAT': 'Сумма с НДС',
  'VAT amount': 'Сумма НДС',
};
const DOUBTFUL_FIELD: Record<string, string> = {
  'document number': 'Номер документа',
  'seller name': 'Наименование продавца',
  'buyer name': 'Наименование покупателя',
  'item name': 'Наименование товара',
};

/** The Russian sentence for one warning message, or the message itself. */
export function warningText(message: string): string {
  for (const [re, ru] of RULES) {
    const m = re.exec(message);
    if (m) return ru(...m.slice(1));
  }
  return message;
}
