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

/** Role names in the interface. */
export const ROLE_LABELS: Record<string, string> = { admin: 'Администратор', viewer: 'Наблюдатель' };

/** Formatting helpers every template receives as `it.h` (Moscow time, Russian number formats); services add theirs. */
export const baseViewHelpers = {
  /** `23.11.2026, 12:05 МСК` (Moscow), or an em dash. */
  dt: (d: Date | null | undefined): string => (d ? `${dateTime.format(d)} МСК` : '—'),
  money: (v: number | null | undefined): string => (v == null ? '—' : money.format(v)),
  qty: (v: number | null | undefined): string => (v == null ? '—' : qty.format(v)),
  text: (v: string | null | undefined): string => (v == null || v === '' ? '—' : v),
  role: (r: string): string => ROLE_LABELS[r] ?? r,
};
