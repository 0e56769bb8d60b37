import { PanelTestClient } from '@app/admin-web/testing';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { makeHarness, type Harness } from '../harness.js';
import type { RecognitionAppDeps } from '../../src/app.js';

export const ADMIN_USER = 'admin';
export const ADMIN_PASSWORD = 'correct horse battery staple';

/** A browser-like client of the panel over `app.inject` (the panels' shared test client on `/admin`). */
export class PanelClient extends PanelTestClient {
  constructor(app: FastifyInstance) {
    super(app, { cookieName: 'admin_session', base: '/admin' });
  }

  /** Opens the sign-in page and signs in (with `headers` on both requests, e.g. X-Forwarded-*); returns the POST's answer. */
  signIn(username = ADMIN_USER, password = ADMIN_PASSWORD, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.signInAs(username, password, headers);
  }
}

/** The recognition harness with an administrator account (fast scrypt parameters are not used: the real ones). */
export async function makeAdminHarness(over: Partial<RecognitionAppDeps> = {}): Promise<Harness> {
  const h = await makeHarness(over);
  await h.services.admin.auth.setPassword(ADMIN_USER, ADMIN_PASSWORD);
  return h;
}
