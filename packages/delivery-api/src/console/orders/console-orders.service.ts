import { AdminError, type AuditEntry, type AuditLog, formError } from '@app/admin-web';
import type { Clock, Db } from '@app/shared';
import { ApiError, OperatorError } from '../../errors.js';
import { normalisePhone, type PhoneHasher } from '../../guests/phone.js';
import { type LegRecord, LegsRepo } from '../../holds/legs.repo.js';
import { canTransition } from '../../orders/order-states.js';
import type { OrderSupportService } from '../../orders/order-support.js';
import { type OrderRecord, OrdersRepo } from '../../orders/orders.repo.js';
import { AUDIT_LABELS } from '../console-audit.js';
import type { ConsoleOrdersRepo, OrderHistoryRow, OrderListRow, OrderSearch, OrderWebhookRow, ReviewClose } from './console-orders.repo.js';

/** The actions the console offers on an order (each one a support move of the spec's state table). */
export const ORDER_ACTIONS = ['manual-review', 'reject', 'release-holds', 'close-review'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** One line of an order's timeline. */
export interface TimelineEntry {
  at: Date;
  /** `created`, `event`, `webhook`, `pos`, `cancel`, `leg`, `console`. */
  kind: string;
  text: string;
}

/** Everything the order page shows. */
export interface OrderDetail {
  order: OrderRecord;
  legs: LegRecord[];
  webhooks: OrderWebhookRow[];
  history: OrderHistoryRow[];
  review: ReviewClose | null;
  audit: AuditEntry[];
  timeline: TimelineEntry[];
  actions: OrderAction[];
}

/** `+7 999 ***-**-01`: enough to compare with what the guest says, not enough to call them. */
export const maskPhone = (p: string | null): string => (p && /^\+7\d{10}$/.test(p) ? `+7 ${p.slice(2, 5)} ***-**-${p.slice(10)}` : p ? '***' : '—');

/**
 * The console's orders (docs/console.md, Orders): the queue of what needs a person, search, the order's
 * page, and support's actions. Every state move goes through OrderSupportService (the transition table, the hold
 * settlement and the `order.state_changed` webhook), every action is audited.
 */
export class ConsoleOrdersService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      repo: ConsoleOrdersRepo;
      support: OrderSupportService;
      audit: AuditLog;
      phones: PhoneHasher;
    },
  ) {}

  queue(): Promise<OrderListRow[]> {
    return this.deps.repo.queue();
  }

  /**
   * Parses the search form and runs it; null when every field is empty (no search made).
   * @throws AdminError VALIDATION naming `phone` or `date`.
   */
  async search(form: Record<string, string>): Promise<OrderListRow[] | null> {
    const s: OrderSearch = {};
    if (form.externalOrderId) s.externalOrderId = form.externalOrderId.slice(0, 200);
    if (form.phone) {
      let e164: string;
      try {
        e164 = normalisePhone(form.phone);
      } catch {
        throw formError('phone', 'Телефон: +7 и 10 цифр.');
      }
      s.phone = { e164, hash: this.deps.phones.hash(e164) };
    }
    if (form.pointId) s.pointId = form.pointId.slice(0, 20);
    if (form.state) s.state = form.state.slice(0, 40);
    if (form.date) {
      if (!DATE.test(form.date) || Number.isNaN(Date.parse(form.date))) throw formError('date', 'Дата: ГГГГ-ММ-ДД.');
      s.date = form.date;
    }
    if (Object.keys(s).length === 0) return null;
    return this.deps.repo.search(s);
  }

  /** The order page's data. @throws AdminError NOT_FOUND for an unknown or malformed id. */
  async detail(id: string): Promise<OrderDetail> {
    const order = UUID.test(id) ? await new OrdersRepo(this.deps.db).byId(id) : null;
    if (!order) throw new AdminError('NOT_FOUND', 'Такого заказа нет.');
    const [legs, webhooks, history, review, audit] = await Promise.all([
      new LegsRepo(this.deps.db).forOrder(id),
      this.deps.repo.webhooks(id),
      this.deps.repo.history(id),
      this.deps.repo.review(id),
      this.deps.audit.latest(100, id),
    ]);
    return {
      order,
      legs,
      webhooks,
      history,
      review,
      audit,
      timeline: timeline(order, legs, webhooks, history, review, audit),
      actions: actionsFor(order, legs, review),
    };
  }

  /**
   * Runs one action on the order for `actor` and audits it; `note` is required to close a review.
   * @throws AdminError NOT_FOUND; VALIDATION when the action is not allowed in the order's state now (the page was
   * stale) or the note is missing.
   */
  async run(id: string, action: OrderAction, actor: { username: string; ip: string }, note = ''): Promise<string> {
    const d = await this.detail(id);
    if (!d.actions.includes(action))
      throw new AdminError('VALIDATION', 'Это действие в текущем состоянии заказа недоступно: обновите страницу заказа.');
    const text = note.trim().slice(0, 2000);
    let detail = '';
    try {
      if (action === 'manual-review') detail = (await this.deps.support.manualReview(id)).state;
      else if (action === 'reject') detail = (await this.deps.support.reject(id)).state;
      else if (action === 'release-holds') detail = `released ${await this.deps.support.releaseHolds(id)}`;
      else {
        if (!text) throw formError('note', 'Напишите, чем закончился разбор.');
        if (!(await this.deps.repo.closeReview(id, { closedAt: this.deps.clock.now(), username: actor.username, note: text })))
          throw new AdminError('VALIDATION', 'Разбор этого заказа уже закрыт.');
        detail = text;
      }
    } catch (err) {
      // a concurrent change (another desk, the POS) made the move invalid between the page and the click
      if (err instanceof ApiError || err instanceof OperatorError) throw new AdminError('VALIDATION', `Не выполнено: ${err.message}`);
      throw err;
    }
    await this.deps.audit.record(actor, `order.${action}`, id, detail);
    return detail;
  }
}

/** Which actions the order's state allows (spec: "Transitions that are shown"; support's rows of ORDER_TRANSITIONS). */
export function actionsFor(o: OrderRecord, legs: LegRecord[], review: ReviewClose | null): OrderAction[] {
  const out: OrderAction[] = [];
  if (canTransition(o.state, 'manual_review', 'support')) out.push('manual-review');
  if (canTransition(o.state, 'rejected_final', 'support')) out.push('reject');
  // manual review keeps the holds held (spec: "no automatic release"); a person releases them
  if (o.state === 'manual_review' && legs.some((l) => l.state === 'held')) out.push('release-holds');
  if (o.state === 'manual_review' && !review) out.push('close-review');
  return out;
}

/** A history entry in words: what happened and the state it left the order in. */
function eventText(h: OrderHistoryRow): string {
  switch (h.type) {
    case 'order.state_changed':
      return `Состояние: ${h.state}`;
    case 'order.delivery_status_changed':
      return `Касса сообщила статус доставки ${h.deliveryStatus}`;
    case 'order.cancel_requested':
      return 'Запрошена отмена';
    case 'order.cancel_result':
      return `Итог отмены: ${h.cancelState}`;
    default:
      return `${h.type} (состояние ${h.state})`;
  }
}

const LEG_NAMES: Record<string, string> = { coupon: 'купон', bonus: 'бонусы', certificate: 'сертификат' };

function timeline(
  o: OrderRecord,
  legs: LegRecord[],
  webhooks: OrderWebhookRow[],
  history: OrderHistoryRow[],
  review: ReviewClose | null,
  audit: AuditEntry[],
): TimelineEntry[] {
  const t: TimelineEntry[] = [{ at: o.createdAt, kind: 'created', text: `Заказ принят от источника ${o.source} (точка ${o.pointId})` }];
  const delivery = new Map(webhooks.map((w) => [w.eventId, w.status]));
  for (const h of history) {
    const sent = delivery.get(h.eventId);
    t.push({ at: h.occurredAt, kind: 'event', text: `${eventText(h)}${sent ? ` — вебхук: ${sent}` : ''}` });
  }
  // events written before the order's history existed (migration 011) are only in the outbox
  const logged = new Set(history.map((h) => h.eventId));
  for (const w of webhooks)
    if (!logged.has(w.eventId)) t.push({ at: w.occurredAt, kind: 'webhook', text: `Событие ${w.type}${w.status ? ` — доставка: ${w.status}` : ''}` });
  if (o.deliveryStatusAt && !history.some((h) => h.type === 'order.delivery_status_changed'))
    t.push({ at: o.deliveryStatusAt, kind: 'pos', text: `Касса сообщила статус доставки ${o.deliveryStatus}` });
  if (o.cancelRequestedAt)
    t.push({ at: o.cancelRequestedAt, kind: 'cancel', text: `Запрошена отмена (${o.cancelRequestedBy ?? 'partner'}), сейчас: ${o.cancelState}` });
  if (o.cancelDispatchedAt) t.push({ at: o.cancelDispatchedAt, kind: 'cancel', text: 'Отмена передана кассе' });
  for (const l of legs) {
    t.push({ at: l.createdAt, kind: 'leg', text: `Удержание: ${LEG_NAMES[l.kind] ?? l.kind}` });
    if (l.updatedAt.getTime() !== l.createdAt.getTime()) t.push({ at: l.updatedAt, kind: 'leg', text: `${LEG_NAMES[l.kind] ?? l.kind}: ${l.state}` });
  }
  for (const a of audit)
    t.push({ at: a.at, kind: 'console', text: `${a.username}: ${AUDIT_LABELS[a.action] ?? a.action}${a.detail ? ` (${a.detail})` : ''}` });
  if (review && !audit.some((a) => a.action === 'order.close-review'))
    t.push({ at: review.closedAt, kind: 'console', text: `${review.username}: разбор закрыт` });
  return t.sort((a, b) => a.at.getTime() - b.at.getTime());
}
