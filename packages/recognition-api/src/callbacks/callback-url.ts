import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { invalid } from '../errors.js';

/** Resolves a host name to its addresses (port for tests; the real one is `dns.lookup(host, {all: true})`). */
export type Resolver = (host: string) => Promise<string[]>;

/** The real resolver: every address of the host, as the OS resolves it. */
export const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Cloud metadata host names, refused by name whatever they resolve to (on a cloud VM they resolve to
 * 169.254.169.254 / fd00:ec2::254, which the address rule refuses too; off-cloud they may not resolve at all).
 */
export const METADATA_HOSTS = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.com',
]);

/**
 * Where callbacks may go (Spec leaves it open; docs/recognition.md "Callbacks"). `public`: only public unicast
 * addresses (production). `public+loopback`: also loopback 127.0.0.0/8 and ::1, for `npm start`'s own demo
 * receiver. Private ranges, link-local (169.254.169.254 metadata), CGNAT, unique-local, multicast and unspecified
 * are refused in both.
 */
export type CallbackPolicy = { allowLoopback: boolean };

/**
 * True for addresses a callback must never reach under `policy`: everything ipaddr.js does not classify as
 * `unicast`, except `loopback` when the policy allows it. IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged as the
 * IPv4 address it carries. Anything that is not an IP address at all is forbidden.
 */
export function isForbiddenAddress(address: string, policy: CallbackPolicy = { allowLoopback: false }): boolean {
  if (!ipaddr.isValid(address)) return true;
  const range = ipaddr.process(address).range();
  if (range === 'unicast') return false;
  return !(policy.allowLoopback && range === 'loopback');
}

/** The host of a URL without IPv6 brackets and without a trailing dot, lower-cased. */
export function callbackHost(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * Checks a `callback_url` at upload (Spec: POST /recognize, callback_url): http(s) only, no credentials, no
 * metadata host names, and every resolved address allowed by `policy`. Numeric forms (`0x7f000001`,
 * `2130706433`, `[::ffff:127.0.0.1]`) are normalised by the WHATWG URL parser before the check, so they are
 * judged as the address they denote. Throws 422 VALIDATION_ERROR naming `callback_url`. The sender checks
 * again at connect time (DNS can change between upload and delivery).
 */
export async function checkCallbackUrl(raw: string, opts: CallbackPolicy & { resolve: Resolver }): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('callback_url', 'is not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('callback_url', 'must use http or https');
  if (url.username || url.password) throw invalid('callback_url', 'must not contain credentials');
  const host = callbackHost(url);
  if (METADATA_HOSTS.has(host)) throw invalid('callback_url', `"${host}" is a cloud metadata service`);
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : await opts.resolve(host);
  } catch {
    throw invalid('callback_url', `host "${host}" does not resolve`);
  }
  if (addresses.length === 0) throw invalid('callback_url', `host "${host}" does not resolve`);
  if (addresses.some((a) => isForbiddenAddress(a, opts))) {
    throw invalid(
      'callback_url',
      `points at a private, loopback or link-local address${opts.allowLoopback ? ' (only loopback is allowed here)' : ''}`,
    );
  }
}
