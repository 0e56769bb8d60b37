import type { TruthParty } from '../truth.types.js';

/**
 * How a TORG-12 prints its parties: `short` "name, ИНН …, КПП …, address" (the default, unchanged); `1c-bank` as 1C
 * prints them, with phone and bank details ("…, тел.: …, р/с …, в банке …, БИК …, к/с …"); `inn-kpp-pair` the same
 * with "ИНН/КПП x/y" (docs/decisions.md "Hard tiers in docgen").
 */
export type PartyStyle = 'short' | '1c-bank' | 'inn-kpp-pair';

const BANKS = ['ПАО «Банк Северо-Запад»', 'АО «Райффайзен-Восток»', 'ООО КБ «Степной»', 'ПАО «Уральский кредит»', 'АО «Банк Меридиан»'];

/**
 * Fictional but well-formed bank details derived from the INN (no random draw, so a seed's other values do not move):
 * a 20-digit settlement account 40702810…/40802810… (ИП), a BIK 04…, and the matching 20-digit корр. счёт 30101810….
 */
export function bankDetails(p: TruthParty): { account: string; bank: string; bik: string; corr: string; phone: string } {
  const d = p.inn!.padEnd(12, '7');
  const bik = `04${d.slice(2, 9)}`;
  return {
    account: `${d.length === 12 && !p.kpp ? '40802810' : '40702810'}${d.slice(0, 12)}`.slice(0, 20),
    bank: BANKS[Number(d[9]) % BANKS.length],
    bik,
    corr: `30101810${d.slice(3, 9)}000${bik.slice(-3)}`.slice(0, 20),
    phone: `+7 (${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6, 8)}-${d.slice(8, 10)}`,
  };
}

/** The party line as printed in the given style (plain text; the caller escapes it). */
export function partyLine(p: TruthParty, style: PartyStyle): string {
  if (style === 'short') return `${p.name}, ИНН ${p.inn}${p.kpp ? `, КПП ${p.kpp}` : ''}, ${p.address}`;
  const ids = style === 'inn-kpp-pair' && p.kpp ? `ИНН/КПП ${p.inn}/${p.kpp}` : `ИНН ${p.inn}${p.kpp ? `, КПП ${p.kpp}` : ''}`;
  const b = bankDetails(p);
  return `${p.name}, ${ids}, ${p.address}, тел.: ${b.phone}, р/с ${b.account}, в банке ${b.bank}, БИК ${b.bik}, к/с ${b.corr}`;
}
