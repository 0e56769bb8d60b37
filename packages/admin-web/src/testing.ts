import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@app/shared/chromium';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { chromium, type Browser } from 'playwright-core';

/** Flags for Debian's chromium in tests (the project's one list, `@app/shared/chromium`). */
export const LAUNCH_ARGS = [...CHROMIUM_ARGS];

/** Debian's Chromium driven by playwright-core, as the panel's browser tests use it. */
export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS, headless: true });

/** Where a panel lives, for a test client: its session cookie's name and its prefix (`/admin`, `/console`). */
export interface PanelTestTarget {
  cookieName: string;
  base: string;
}

/**
 * A browser-like client of a panel over `app.inject`: keeps the session cookie (dropped when the answer expires it),
 * reads the CSRF token of the last page and adds it to each form it POSTs.
 */
export class PanelTestClient {
  cookie = '';
  csrf = '';
  constructor(
    private readonly app: FastifyInstance,
    private readonly target: PanelTestTarget,
  ) {}

  private remember(res: LightMyRequestResponse): LightMyRequestResponse {
    for (const c of ([] as string[]).concat(res.headers['set-cookie'] ?? [])) {
      const [pair] = c.split(';');
      if (pair!.startsWith(`${this.target.cookieName}=`)) this.cookie = /Max-Age=0|Expires=Thu, 01 Jan 1970/.test(c) ? '' : pair!;
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
  async signInAs(username: string, password: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    await this.get(`${this.target.base}/login`, headers);
    return this.post(`${this.target.base}/login`, { username, password }, { headers });
  }
}
