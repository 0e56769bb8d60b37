import type { Clock, Db, IdSource } from '@app/shared';
import type { PhoneHasher } from '../guests/phone.js';
import type { OrderSupportService } from '../orders/order-support.js';
import type { ConsoleCore } from './console.module.js';
import type { ConsoleSection } from './console.plugin.js';
import { ConsoleOrdersRepo } from './orders/console-orders.repo.js';
import { ConsoleOrdersService } from './orders/console-orders.service.js';
import { ordersRoutes } from './orders/orders.routes.js';

/** What the console's sections are built from (app.ts passes the app's own objects). */
export interface ConsoleSectionDeps {
  db: Db;
  clock: Clock;
  ids: IdSource;
  core: ConsoleCore;
  /** Support's moves of an order (manual review, reject, release holds), shared with the operator CLI. */
  support: OrderSupportService;
  /** The keyed phone hash of guest history (guests/phone.ts), to find orders by phone. */
  phones: PhoneHasher;
}

/**
 * The console's feature sections in navigation order (docs/console.md "Adding a page"): a new section is one
 * entry here. The audit log and the users page are added by the plugin after these.
 */
export function consoleSections(d: ConsoleSectionDeps): ConsoleSection[] {
  const orders = new ConsoleOrdersService({
    db: d.db,
    clock: d.clock,
    repo: new ConsoleOrdersRepo(d.db),
    support: d.support,
    audit: d.core.audit,
    phones: d.phones,
  });
  return [
    {
      nav: { href: '/console/orders', label: 'Заказы', section: 'orders' },
      summary: 'Очередь того, что ждёт человека, поиск заказов, страница заказа и действия поддержки.',
      routes: (app) => ordersRoutes(app, orders),
    },
  ];
}
