import { fileURLToPath } from 'node:url';
import { installAdminWeb, type AdminSettings } from '@app/admin-web';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '@app/shared';
import type { ApiScope } from '../keys/keys.repo.js';
import { documentsRoutes } from './admin-documents.routes.js';
import { edoRoutes } from './admin-edo.routes.js';
import { keysRoutes } from './admin-keys.routes.js';
import type { AdminServices } from './admin.module.js';
import { viewHelpers } from './view-helpers.js';

declare module '@fastify/secure-session' {
  interface SessionData {
    /** A key just created, until the page after the redirect has shown it once (Post/Redirect/Get). */
    createdKey: { name: string; key: string; callbackSecret: string; scopes: ApiScope[] };
    /** A callback secret just rotated, until the page after the redirect has shown it once. */
    rotatedSecret: { name: string; secret: string };
  }
}

/** This panel's own templates (sections); the layout, sign-in, error, account and users pages come from @app/admin-web. */
const VIEWS = fileURLToPath(new URL('./views', import.meta.url));

/**
 * The recognition service's administration panel, registered with prefix `/admin`: the plumbing of @app/admin-web
 * (sessions, CSRF, sign-in limits, roles, accounts, headers) and the sections documents, API keys, e-document
 * operator connection and audit log.
 */
export async function adminPanel(app: FastifyInstance, opts: { services: AdminServices; settings: AdminSettings; clock: Clock }): Promise<void> {
  const { services } = opts;
  await installAdminWeb(app, {
    settings: opts.settings,
    clock: opts.clock,
    auth: services.auth,
    audit: (actor, action, target, detail) => services.audit.record(actor, action, target, detail),
    views: VIEWS,
    helpers: viewHelpers,
    brand: 'Распознавание документов',
    home: '/admin/documents',
    nav: [
      { href: '/admin/documents', label: 'Документы', section: 'documents' },
      { href: '/admin/keys', label: 'Ключи API', section: 'keys' },
      { href: '/admin/edo', label: 'Подключение ЭДО', section: 'edo' },
      { href: '/admin/audit', label: 'Журнал', section: 'audit' },
    ],
  });
  keysRoutes(app, services);
  edoRoutes(app, services);
  documentsRoutes(app, services);
}
