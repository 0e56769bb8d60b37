import { ApiError } from '../../errors.js';

/** Retry-After used when the operator's 429 carries none (Diadoc's limits are undocumented; see docs). */
export const DEFAULT_RETRY_AFTER_S = 30;

/** Seconds of a `Retry-After` header (delta-seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  if (/^\d+$/.test(v.trim())) return Number(v.trim());
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/** The operator's text for a message: plain text as is; an HTML page (proxy errors) reduced to its title. */
export function operatorText(body: string, contentType: string | undefined): string {
  if (/html/i.test(contentType ?? '') || /^\s*</.test(body)) {
    const title = /<title>([^<]*)<\/title>/i.exec(body)?.[1]?.trim();
    return `HTML page from a proxy${title ? `: ${title}` : ''}`;
  }
  const text = body.replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text || '(empty body)';
}

/** What a call was about, for explaining a 403: the box as a whole, one document, or an administrator's action. */
export type CallKind = 'box' | 'document' | 'admin';

/** Diadoc's 403 has several causes (reference §5); the explanation names those that fit the call. */
function forbiddenWhy(what: CallKind): string {
  switch (what) {
    case 'document':
      return 'the operator denied access to this document (the user of the refresh token may not see it: its department or document access level excludes it, or the document is in another box).';
    case 'admin':
      return 'the operator denied the action: it needs an administrator of the box (the user of the refresh token is not one).';
    default:
      return "the operator denied access to the box (box not among the user's boxes, or the organization is closed).";
  }
}

/**
 * Maps a Diadoc error answer to our error (Spec: Errors envelope; codes in errors.ts), keeping the operator's
 * status, `X-Diadoc-ErrorCode` and text in the message so an administrator can look it up.
 */
export function mapOperatorError(status: number, errorCode: string | undefined, text: string, retryAfter?: number, what: CallKind = 'box'): ApiError {
  const said = `Diadoc answered ${status}${errorCode ? ` ${errorCode}` : ''}: ${text}`;
  switch (status) {
    case 400:
      return new ApiError('EDO_BAD_REQUEST', `the operator rejected the request. ${said}`);
    case 401:
      return new ApiError(
        'EDO_UNAUTHORIZED',
        `the operator refused the access token even after a refresh; check that the user of the refresh token is an employee of the box. ${said}`,
      );
    case 402:
      return new ApiError('EDO_SUBSCRIPTION_REQUIRED', `the box has no active Diadoc API subscription. ${said}`);
    case 403:
      return new ApiError('EDO_FORBIDDEN', `${forbiddenWhy(what)} ${said}`);
    case 404:
      return new ApiError('EDO_NOT_FOUND', `not found at the operator. ${said}`);
    case 409:
      return new ApiError('EDO_CONFLICT', `conflict at the operator. ${said}`);
    case 429:
      return new ApiError('EDO_RATE_LIMITED', `the operator limits the request rate; retry later. ${said}`, {
        'retry-after': String(retryAfter ?? DEFAULT_RETRY_AFTER_S),
      });
    case 410:
      return new ApiError('EDO_UNAVAILABLE', `the operator retired this method. ${said}`);
    case 405:
      // Our adapter chose the wrong verb: a defect on our side, not an outage; retrying will not help.
      return new ApiError(
        'EDO_BAD_GATEWAY',
        `the operator does not accept this HTTP method for the call (a gateway defect; please report it). ${said}`,
      );
    case 413:
      return new ApiError(
        'EDO_PAYLOAD_TOO_LARGE',
        `the operator refused the request as too large (Diadoc: at most 70 MB per request; content above ~500 KB belongs on its shelf). ${said}`,
      );
    default:
      return new ApiError('EDO_UNAVAILABLE', `the operator is unavailable. ${said}`);
  }
}

/** A network failure or timeout while calling the operator (or its identity provider). */
export function unreachable(what: string, err: unknown): ApiError {
  const e = err as { name?: string; code?: string; message?: string };
  const timedOut = e?.name === 'TimeoutError' || e?.name === 'AbortError' || /Timeout/i.test(e?.code ?? '');
  return new ApiError(
    'EDO_UNAVAILABLE',
    `${what} ${timedOut ? 'did not answer in time' : `is unreachable (${e?.code ?? e?.message ?? 'network error'})`}`,
  );
}
