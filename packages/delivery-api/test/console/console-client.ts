import { PanelTestClient } from '@app/admin-web/testing';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { World } from '../harness.js';

export const ADMIN = { username: 'chief', password: 'correct horse battery staple' };
export const SUPPORT = { username: 'desk', password: 'support desk password 1' };

/** Creates the two test accounts of the console (`chief` admin, `desk` support) in the world's database. */
export async function addConsoleAccounts(w: World): Promise<void> {
  await w.services.consoleCore.auth.createUser(ADMIN.username, ADMIN.password, 'admin');
  await w.services.consoleCore.auth.createUser(SUPPORT.username, SUPPORT.password, 'support');
}

/** A browser-like client of the console over `app.inject` (the panels' shared test client on `/console`). */
export class ConsoleClient extends PanelTestClient {
  constructor(app: FastifyInstance) {
    super(app, { cookieName: 'console_session', base: '/console' });
  }

  /** Opens the sign-in page and signs in; returns the POST's answer (303 to the home page when it worked). */
  signIn(who: { username: string; password: string }): Promise<LightMyRequestResponse> {
    return this.signInAs(who.username, who.password);
  }
}
