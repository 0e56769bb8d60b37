import type { Clock, Db, IdSource } from '@app/shared';
import type { OrderSupportService } from '../orders/order-support.js';
import type { ConsoleCore } from './console.module.js';
import type { ConsoleSection } from './console.plugin.js';

/** What the console's sections are built from (app.ts passes the app's own objects). */
export interface ConsoleSectionDeps {
  db: Db;
  clock: Clock;
  ids: IdSource;
  core: ConsoleCore;
  /** Support's moves of an order (manual review, reject, release holds), shared with the operator CLI. */
  support: OrderSupportService;
}

/**
 * The console's feature sections in navigation order (docs/console.md "Adding a page"): a new section is one
 * entry here. The audit log and the users page are added by the plugin after these.
 */
export function consoleSections(_d: ConsoleSectionDeps): ConsoleSection[] {
  return [];
}
