import type { LegRecord } from '../../holds/legs.repo.js';
import type { OrderAction } from './console-orders.service.js';

const rub = (minor: number) => `${(minor / 100).toLocaleString('ru-RU', { minimumFractionDigits: 2 })} ₽`;

/** The title of each action's button and confirmation page. */
export const ACTION_TITLES: Record<OrderAction, string> = {
  'manual-review': 'Передать на ручной разбор',
  reject: 'Отклонить заказ',
  'release-holds': 'Снять удержания лояльности',
  'close-review': 'Закрыть разбор с заметкой',
};

/**
 * What an action does to the order and to the guest's coupon, bonus and certificate (spec: "Transitions that are
 * shown", side effects; POST /v1/orders rule 10), in the words the confirmation page shows.
 */
export function actionEffects(action: OrderAction, legs: LegRecord[]): string[] {
  const held = legs.filter((l) => l.state === 'held' || l.state === 'holding' || l.state === 'settle_failed');
  const coupon = held.find((l) => l.kind === 'coupon');
  const bonus = held.filter((l) => l.kind === 'bonus').reduce((s, l) => s + l.amountMinor, 0);
  const cert = held.filter((l) => l.kind === 'certificate').reduce((s, l) => s + l.amountMinor, 0);
  const nothing = 'У заказа нет удержаний лояльности: купона, бонусов и сертификата это не касается.';
  const returned = [
    coupon ? `Купон${coupon.coupon ? ` ${coupon.coupon}` : ''} снова станет доступен гостю.` : null,
    bonus ? `${rub(bonus)} бонусов вернутся на счёт гостя.` : null,
    cert ? `${rub(cert)} вернутся на сертификат.` : null,
  ].filter((x): x is string => x !== null);
  const kept = [
    coupon ? `Купон${coupon.coupon ? ` ${coupon.coupon}` : ''} остаётся удержанным: гость не сможет применить его снова.` : null,
    bonus ? `${rub(bonus)} бонусов остаются удержанными на счёте гостя.` : null,
    cert ? `${rub(cert)} остаются удержанными на сертификате.` : null,
  ].filter((x): x is string => x !== null);
  switch (action) {
    case 'manual-review':
      return [
        'Заказ перейдёт в состояние manual_review (окончательное): касса его больше не создаёт, партнёр получит вебхук order.state_changed.',
        ...(held.length ? [...kept, 'Автоматически удержания не снимаются: после разбора снимите их здесь же или подтвердите вручную.'] : [nothing]),
      ];
    case 'reject':
      return [
        'Заказ перейдёт в состояние rejected_final (окончательное): партнёр получит вебхук order.state_changed.',
        ...(held.length ? ['Удержания снимаются сразу:', ...returned] : [nothing]),
      ];
    case 'release-holds':
      return [
        'Состояние заказа не меняется (manual_review).',
        ...(held.length ? ['Удержания снимаются в сервисе лояльности:', ...returned] : [nothing]),
      ];
    case 'close-review':
      return [
        'Заказ уйдёт из очереди; состояние (manual_review) не меняется, заметка сохраняется в журнале и на странице заказа.',
        held.length ? `Удержания не меняются: ${kept.join(' ')}` : nothing,
      ];
  }
}
