import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { invalid } from '../errors.js';

/** Resolves a host name to its addresses (port for tests; the real one is `dns.lookup(host, {all: true})`). */
export type Resolver = (host: string) => Promise<string[]>;

/** The real resolver: every address of the host, as the OS resolves it. */
export const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * True for addresses a callback must never reach: everything that ipaddr.js does not classify as `unicast`
 * (loopback, private 10/8 172.16/12 192.168/16, link-local, unique-local fc00::/7, CGNAT, multicast,
 * unspecified, reserved …). IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it carries.
 */
export function isForbiddenAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  const ip = ipaddr.process(address);
  return ip.range() !== 'unicast';
}

/**
 * Checks a `callback_url` at upload (Spec: POST /recognize, callback_url): http(s) only, no credentials in it,
 * and unless `allowPrivate` (RECOGNITION_ALLOW_PRIVATE_CALLBACKS=1) every resolved address must be public.
 * Throws 422 VALIDATION_ERROR naming `callback_url`. The sender checks again at connect time (DNS can change).
 */
export async function checkCallbackUrl(raw: string, opts: { allowPrivate: boolean; resolve: Resolver }): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('callback_url', 'is not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('callback_url', 'must use http or https');
  if (url.username || url.password) throw invalid('callback_url', 'must not contain credentials');
  if (opts.allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : await opts.resolve(host);
  } catch {
    throw invalid('callback_url', `host "${host}" does not resolve`);
  }
  if (addresses.length === 0) throw invalid('callback_url', `host "${host}" does not resolve`);
  if (addresses.some(isForbiddenAddress)) throw invalid('callback_url', 'points at a private, loopback or link-local address');
}
