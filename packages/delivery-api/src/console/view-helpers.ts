import { ORDER_STATES } from '@app/delivery-contract';
import { AUDIT_LABELS } from './console-audit.js';

const REASONS: Record<string, string> = {
  reconciliation: 'касса не уверена в результате',
  review: 'ручной разбор не закрыт',
  stuck_leg: 'удержание не подтверждено/не снято',
  refund: 'нужно решение о возврате',
  cancel_waiting: 'отмена ждёт кассу',
};
const KINDS: Record<string, string> = {
  created: 'создание',
  event: 'событие',
  webhook: 'вебхук',
  pos: 'касса',
  cancel: 'отмена',
  leg: 'лояльность',
  console: 'консоль',
};

/** Helpers the console's templates receive beside @app/admin-web's (`it.h`). */
export const consoleHelpers = {
  /** The Russian name of an audited action, or its code. */
  action: (a: string): string => AUDIT_LABELS[a] ?? a,
  /** Every order state, for the search form. */
  orderStates: ORDER_STATES,
  /** Why an order is in the queue, in words. */
  reason: (r: string): string => REASONS[r] ?? r,
  /** The kind of a timeline line, in words. */
  kind: (k: string): string => KINDS[k] ?? k,
  /** The badge colour of a state: done, failed or waiting. */
  stateClass: (s: string): string =>
    s === 'created_verified'
      ? 'st-completed'
      : s === 'rejected_final' || s === 'cancelled' || s === 'reconciliation_required'
        ? 'st-failed'
        : 'st-queued',
};
