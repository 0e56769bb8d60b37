import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { World } from '../harness.js';

export const ADMIN = { username: 'chief', password: 'correct horse battery staple' };
export const SUPPORT = { username: 'desk', password: 'support desk password 1' };

/** Creates the two test accounts of the console (`chief` admin, `desk` support) in the world's database. */
export async function addConsoleAccounts(w: World): Promise<void> {
  await w.services.consoleCore.auth.createUser(ADMIN.username, ADMIN.password, 'admin');
  await w.services.consoleCore.auth.createUser(SUPPORT.username, SUPPORT.password, 'support');
}

/** A browser-like client of the console over `app.inject`: keeps the session cookie, reads the last page's CSRF token. */
export class ConsoleClient {
  cookie = '';
  csrf = '';
  constructor(private readonly app: FastifyInstance) {}

  private remember(res: LightMyRequestResponse): LightMyRequestResponse {
    for (const c of ([] as string[]).concat(res.headers['set-cookie'] ?? [])) {
      const [pair] = c.split(';');
      if (pair!.startsWith('console_session=')) this.cookie = /Max-Age=0|Expires=Thu, 01 Jan 1970/.test(c) ? '' : pair!;
    }
    const m = /name="_csrf" value="([^"]+)"/.exec(res.body);
    if (m) this.csrf = m[1]!;
    return res;
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    return this.remember(await this.app.inject({ method: 'GET', url, headers: this.cookie ? { cookie: this.cookie } : {} }));
  }

  /** POSTs a form; `_csrf` is added unless `csrf: false`. */
  async post(url: string, form: Record<string, string | string[]> = {}, opts: { csrf?: boolean } = {}): Promise<LightMyRequestResponse> {
    const body = new URLSearchParams();
    if (opts.csrf !== false && !('_csrf' in form)) body.append('_csrf', this.csrf);
    for (const [k, v] of Object.entries(form)) for (const x of ([] as string[]).concat(v)) body.append(k, x);
    return this.remember(
      await this.app.inject({
        method: 'POST',
        url,
        payload: body.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(this.cookie ? { cookie: this.cookie } : {}) },
      }),
    );
  }

  /** Opens the sign-in page and signs in; returns the POST's answer (303 to the home page when it worked). */
  async signIn(who: { username: string; password: string }): Promise<LightMyRequestResponse> {
    await this.get('/console/login');
    return this.post('/console/login', { username: who.username, password: who.password });
  }
}
