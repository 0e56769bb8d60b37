import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { makeHarness, type Harness } from '../harness.js';
import type { RecognitionAppDeps } from '../../src/app.js';

export const ADMIN_USER = 'admin';
export const ADMIN_PASSWORD = 'correct horse battery staple';

/** A browser-like client over `app.inject`: keeps the session cookie, reads the CSRF token of the last page. */
export class PanelClient {
  cookie = '';
  csrf = '';
  constructor(private readonly app: FastifyInstance) {}

  private remember(res: LightMyRequestResponse): LightMyRequestResponse {
    const set = res.headers['set-cookie'];
    for (const c of ([] as string[]).concat(set ?? [])) {
      const [pair] = c.split(';');
      if (pair!.startsWith('admin_session=')) this.cookie = /Max-Age=0|Expires=Thu, 01 Jan 1970/.test(c) ? '' : pair!;
    }
    const m = /name="_csrf" value="([^"]+)"/.exec(res.body);
    if (m) this.csrf = m[1]!;
    return res;
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.remember(await this.app.inject({ method: 'GET', url, headers: { ...(this.cookie ? { cookie: this.cookie } : {}), ...headers } }));
  }

  /** POSTs a form; `_csrf` is added unless `csrf: false` (or given in `form`). */
  async post(
    url: string,
    form: Record<string, string | string[]> = {},
    opts: { csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<LightMyRequestResponse> {
    const body = new URLSearchParams();
    if (opts.csrf !== false && !('_csrf' in form)) body.append('_csrf', this.csrf);
    for (const [k, v] of Object.entries(form)) for (const x of ([] as string[]).concat(v)) body.append(k, x);
    return this.remember(
      await this.app.inject({
        method: 'POST',
        url,
        payload: body.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(this.cookie ? { cookie: this.cookie } : {}), ...opts.headers },
      }),
    );
  }

  /** Opens the sign-in page and signs in (with `headers` on both requests, e.g. X-Forwarded-*); returns the POST's answer. */
  async signIn(username = ADMIN_USER, password = ADMIN_PASSWORD, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    await this.get('/admin/login', headers);
    return this.post('/admin/login', { username, password }, { headers });
  }
}

/** The recognition harness with an administrator account (fast scrypt parameters are not used: the real ones). */
export async function makeAdminHarness(over: Partial<RecognitionAppDeps> = {}): Promise<Harness> {
  const h = await makeHarness(over);
  await h.services.admin.auth.setPassword(ADMIN_USER, ADMIN_PASSWORD);
  return h;
}
