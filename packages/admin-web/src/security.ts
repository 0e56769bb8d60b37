/** Host names of this machine: plain http to them is the one case `auto` leaves the cookie without Secure. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[?::1\]?)$/i;

/**
 * Whether the session cookie gets `Secure` (and the answer HSTS): `true`/`false` decide; `auto` means Secure unless
 * the request is plain http to a loopback host (a laptop). Behind a TLS proxy `protocol` is `https` once the app
 * trusts the proxy; without it a non-loopback host still gets Secure, so a misconfigured proxy cannot downgrade it.
 */
export function cookieIsSecure(setting: 'auto' | boolean, protocol: string, hostname: string): boolean {
  if (setting !== 'auto') return setting;
  return protocol === 'https' || !LOOPBACK.test(hostname);
}

/** Only our own files; no inline script or style, no framing, forms post only to us. */
export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
