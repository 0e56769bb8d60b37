import { SCOPE_LABELS } from './admin-keys.service.js';
import { MANUAL_CHECK_BELOW } from './admin-documents.service.js';

const dateTime = new Intl.DateTimeFormat('ru-RU', {
  timeZone: 'Europe/Moscow',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const money = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const qty = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 3 });

export const STATUS_LABELS: Record<string, string> = { queued: 'В очереди', processing: 'Распознаётся', completed: 'Распознан', failed: 'Ошибка' };
export const TYPE_LABELS: Record<string, string> = { upd: 'УПД', torg12: 'ТОРГ-12', invoice: 'Счёт-фактура', auto: 'Определяется' };

/** Formatting helpers every template receives as `it.h` (Moscow time, Russian number formats). */
export const viewHelpers = {
  /** `23.11.2026, 12:05` (Moscow), or an em dash. */
  dt: (d: Date | null | undefined): string => (d ? `${dateTime.format(d)} МСК` : '—'),
  money: (v: number | null | undefined): string => (v == null ? '—' : money.format(v)),
  qty: (v: number | null | undefined): string => (v == null ? '—' : qty.format(v)),
  text: (v: string | null | undefined): string => (v == null || v === '' ? '—' : v),
  status: (s: string): string => STATUS_LABELS[s] ?? s,
  type: (t: string): string => TYPE_LABELS[t] ?? t,
  scopes: (list: string[]): string => list.map((s) => SCOPE_LABELS[s as keyof typeof SCOPE_LABELS] ?? s).join(', '),
  confidence: (c: number | null | undefined): string => (c == null ? '—' : c.toFixed(2)),
  needsCheck: (c: number | null | undefined): boolean => c != null && c < MANUAL_CHECK_BELOW,
  vat: (rate: number | null | undefined, exempt?: boolean): string => (exempt ? 'без НДС' : rate == null ? '—' : `${rate}%`),
};

export type ViewHelpers = typeof viewHelpers;
