import { fileURLToPath } from 'node:url';
import { type AdminSettings, installAdminWeb } from '@app/admin-web';
import type { FastifyInstance } from 'fastify';
import { CONSOLE_PREFIX, type ConsoleSection } from './console-section.js';

export { CONSOLE_PREFIX };
import type { Clock } from '@app/shared';
import { auditRoutes } from './audit.routes.js';
import { homeRoutes } from './home.routes.js';
import { CONSOLE_ROLE_LABELS, CONSOLE_ROLES, type ConsoleCore } from './console.module.js';
import { consoleHelpers } from './view-helpers.js';

/** This console's templates; the layout, sign-in, error, account and users pages come from @app/admin-web. */
const VIEWS = fileURLToPath(new URL('./views', import.meta.url));

/** What the console plugin needs: its core (accounts, audit), the session settings, the clock and the sections. */
export interface ConsoleOptions {
  core: ConsoleCore;
  settings: AdminSettings;
  clock: Clock;
  /** The feature sections (orders, webhooks, chain), before the audit log and the users page. */
  sections: ConsoleSection[];
}

/**
 * The delivery service's support console, registered with prefix `/console` (docs/console.md): the
 * plumbing of @app/admin-web with the roles `admin` and `support` (support: orders and webhooks; admin: also the
 * chain's settings, the audit log and the accounts), the home page, the sections given and the audit log.
 */
export async function consolePlugin(app: FastifyInstance, opts: ConsoleOptions): Promise<void> {
  const { core } = opts;
  const audit: ConsoleSection = {
    nav: { href: `${CONSOLE_PREFIX}/audit`, label: 'Журнал', section: 'audit', role: 'admin' },
    summary: 'Кто, что, когда и откуда менял в консоли; входы и неудачные попытки входа.',
    routes: (a) => auditRoutes(a, core),
  };
  const sections = [...opts.sections, audit];
  await installAdminWeb(app, {
    prefix: CONSOLE_PREFIX,
    roles: CONSOLE_ROLES,
    roleLabels: CONSOLE_ROLE_LABELS,
    usersRole: 'admin',
    panelName: 'Консоль поддержки',
    forbiddenText: 'Это доступно только администратору консоли. Обратитесь к администратору.',
    settings: opts.settings,
    clock: opts.clock,
    auth: core.auth,
    audit: (actor, action, target, detail) => core.audit.record(actor, action, target, detail),
    views: VIEWS,
    helpers: consoleHelpers,
    brand: 'Delivery Partner API',
    home: `${CONSOLE_PREFIX}/orders`,
    nav: sections.map((s) => s.nav),
  });
  homeRoutes(app, sections);
  for (const s of sections) s.routes(app);
}
