import { ApiError, type ErrorCode } from '../errors.js';
import type { EdoSession } from './edo-session.js';

/** Body of GET /api/v1/edo/health. Connected: exactly the spec's four fields; otherwise `message` says why. */
export interface EdoHealth {
  status: string;
  authenticated: boolean;
  organizations_count: number;
  box_id: string | null;
  message?: string;
}

const REASON: Partial<Record<ErrorCode, [status: string, authenticated: boolean]>> = {
  EDO_NOT_CONFIGURED: ['not_configured', false],
  EDO_UNAUTHORIZED: ['unauthorized', false],
  EDO_FORBIDDEN: ['forbidden', true],
  EDO_SUBSCRIPTION_REQUIRED: ['subscription_required', true],
  EDO_RATE_LIMITED: ['rate_limited', true],
  EDO_UNAVAILABLE: ['unreachable', false],
};

const norm = (id: unknown) =>
  String(id ?? '')
    .trim()
    .toLowerCase()
    .replace(/@diadoc\.ru$/, '')
    .replace(/-/g, '');

/**
 * Connection check (Spec: GET /api/v1/edo/health): gets a token and calls GetMyOrganizations (autoRegister=false);
 * connected when the configured box is among the user's boxes. A stored connection whose secrets cannot be
 * opened is `misconfigured`; a box the user cannot see is `box_not_found`.
 */
export async function checkHealth(session: EdoSession): Promise<{ ok: boolean; body: EdoHealth }> {
  let boxId: string | null = null;
  try {
    const op = await session.operator();
    boxId = op.boxId;
    const orgs = ((await op.listOrganizations()).Organizations ?? []) as { Boxes?: { BoxId?: string; BoxIdGuid?: string }[] }[];
    const seen = orgs.some((o) => (o.Boxes ?? []).some((b) => norm(b.BoxId) === norm(boxId) || norm(b.BoxIdGuid) === norm(boxId)));
    if (!seen) {
      return {
        ok: false,
        body: {
          status: 'box_not_found',
          authenticated: true,
          organizations_count: orgs.length,
          box_id: boxId,
          message: `box ${boxId} is not among the boxes of the authorised user`,
        },
      };
    }
    return { ok: true, body: { status: 'connected', authenticated: true, organizations_count: orgs.length, box_id: boxId } };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const undecryptable = err.code === 'EDO_NOT_CONFIGURED' && err.message.includes('decrypted');
    const [status, authenticated] = undecryptable ? ['misconfigured', false] : (REASON[err.code] ?? ['error', false]);
    return { ok: false, body: { status, authenticated, organizations_count: 0, box_id: boxId, message: err.message } };
  }
}
