import { manualCheckRecommended } from '../engine/confidence/confidence.js';
import { SCOPE_LABELS } from './admin-keys.service.js';

export const STATUS_LABELS: Record<string, string> = { queued: 'В очереди', processing: 'Распознаётся', completed: 'Распознан', failed: 'Ошибка' };
export const TYPE_LABELS: Record<string, string> = { upd: 'УПД', torg12: 'ТОРГ-12', invoice: 'Счёт-фактура', auto: 'Определяется' };

/** The recognition panel's helpers for `it.h`, beside the date, money and role formats of @app/admin-web. */
export const viewHelpers = {
  status: (s: string): string => STATUS_LABELS[s] ?? s,
  type: (t: string): string => TYPE_LABELS[t] ?? t,
  scopes: (list: string[]): string => list.map((s) => SCOPE_LABELS[s as keyof typeof SCOPE_LABELS] ?? s).join(', '),
  confidence: (c: number | null | undefined): string => (c == null ? '—' : c.toFixed(2)),
  /** A completed document with `manual_check_recommended` (the same rule as the API's field and the review filter). */
  needsCheck: (d: { status: string; confidence: number | null; warnings: readonly { message: string }[] | null }): boolean =>
    d.status === 'completed' && manualCheckRecommended(d.confidence, d.warnings),
  vat: (rate: number | null | undefined, exempt?: boolean): string => (exempt ? 'без НДС' : rate == null ? '—' : `${rate}%`),
};
