import type { Clock, Db, IdSource } from '@app/shared';
import type { SecretBox } from '../auth/secret-box.js';
import type { PhoneHasher } from '../guests/phone.js';
import type { OrderSupportService } from '../orders/order-support.js';
import type { ZonesService } from '../zones/zones.service.js';
import { chainSection } from './chain/chain.routes.js';
import { ConsoleChainService } from './chain/console-chain.service.js';
import type { ConsoleCore } from './console.module.js';
import type { ConsoleSection } from './console-section.js';
import { ConsoleOrdersRepo } from './orders/console-orders.repo.js';
import { ConsoleOrdersService } from './orders/console-orders.service.js';
import { ordersRoutes } from './orders/orders.routes.js';
import { ConsoleWebhooksService } from './webhooks/console-webhooks.service.js';
import { webhooksSection } from './webhooks/webhooks.routes.js';

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
  /** Seals webhook secrets and API secrets (webhooks and chain sections). */
  box: SecretBox;
  /** Resolve tried on the zones map (the partner API's own service). */
  zones: ZonesService;
  /** POS_HEARTBEAT_WINDOW_SECONDS: an older heartbeat shows the POS as silent. */
  heartbeatWindowSeconds: number;
  /** WEBHOOKS_ALLOW_INSECURE_LOOPBACK: a plain-http loopback webhook URL is accepted (tests, demo). */
  webhooksAllowInsecureLoopback: boolean;
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
    webhooksSection({
      core: d.core,
      webhooks: new ConsoleWebhooksService({ db: d.db, box: d.box, clock: d.clock, allowInsecureLoopback: d.webhooksAllowInsecureLoopback }),
    }),
    chainSection({
      core: d.core,
      chain: new ConsoleChainService({
        db: d.db,
        box: d.box,
        clock: d.clock,
        ids: d.ids,
        zones: d.zones,
        heartbeatWindowSeconds: d.heartbeatWindowSeconds,
      }),
    }),
  ];
}
