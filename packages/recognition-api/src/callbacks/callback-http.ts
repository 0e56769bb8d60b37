import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { Agent, request } from 'undici';
import { callbackHost, isForbiddenAddress, METADATA_HOSTS } from './callback-url.js';

/** Outgoing HTTP for callbacks (port): POSTs a JSON body, resolves with the status or rejects on network errors. */
export interface CallbackHttp {
  /**
   * `headers` are added to `content-type: application/json` (the signature headers); `signal` aborts the request
   * (the sender's whole-attempt deadline).
   */
  postJson(url: string, body: string, headers?: Record<string, string>, signal?: AbortSignal): Promise<{ status: number }>;
}

/** Connection timeout of a callback (Spec: Events, "connection timeout 10 seconds"); also used for headers/body. */
export const CALLBACK_TIMEOUT_MS = 10_000;

/**
 * The real adapter over undici: 10 s connect/headers/body timeouts, no redirects (undici's `request` never
 * follows them, and a 3xx is not a 2xx confirmation). The address is checked again when the socket connects (a
 * guarded DNS lookup), so a name that now resolves to 10.0.0.5 or ::1 is refused even if it was public at upload
 * time (DNS rebinding). `allowLoopback` (npm start's demo only) lets loopback through; private, link-local and
 * metadata targets are refused always.
 */
export class UndiciCallbackHttp implements CallbackHttp {
  private readonly agent: Agent;
  /** Connect, headers and body timeouts in ms (Spec: Events, "connection timeout 10 seconds"). */
  readonly timeouts: { connect: number; headers: number; body: number };
  constructor(private readonly opts: { allowLoopback: boolean; userAgent?: string /** Default {@link CALLBACK_TIMEOUT_MS}. */; timeoutMs?: number }) {
    const timeout = opts.timeoutMs ?? CALLBACK_TIMEOUT_MS;
    this.timeouts = { connect: timeout, headers: timeout, body: timeout };
    const guarded = (hostname: string, options: object, cb: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
      dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) return cb(err, []);
        const bad = addresses.find((a) => isForbiddenAddress(a.address, opts));
        if (bad) return cb(new Error(`callback host ${hostname} resolves to a non-public address`), []);
        const all = (options as { all?: boolean }).all;
        if (all) return cb(null, addresses);
        cb(null, addresses[0]!.address, addresses[0]!.family);
      });
    };
    this.agent = new Agent({
      connect: { timeout, lookup: guarded },
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
  }

  async postJson(url: string, body: string, extra: Record<string, string> = {}, signal?: AbortSignal): Promise<{ status: number }> {
    const host = callbackHost(new URL(url));
    if (METADATA_HOSTS.has(host) || (ipaddr.isValid(host) && isForbiddenAddress(host, this.opts))) {
      throw new Error('callback URL points at a non-public address');
    }
    const res = await request(url, {
      method: 'POST',
      dispatcher: this.agent,
      headers: { ...extra, 'content-type': 'application/json', 'user-agent': this.opts.userAgent ?? 'recognition-api-callbacks/1' },
      body,
      signal,
    });
    await res.body.dump();
    return { status: res.statusCode };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
