import type { Clock, IdSource } from '@app/shared';
import { normalizeBoxId } from '../box-ids.js';
import type { SimEvent, SimState } from '../model.js';
import type { SimIdentityProvider } from '../oidc.js';
import { DiadocError } from './diadoc-error.js';

/** What the route modules share: the state, time and ids, the identity provider. */
export interface SimContext {
  state: SimState;
  clock: Clock;
  ids: IdSource;
  idp: SimIdentityProvider;
  /** Every API request received (`METHOD /path`), for tests asserting that nothing was sent. */
  requests: string[];
  /** The same requests with their query strings (`METHOD /path?query`), for tests asserting what was sent. */
  requestUrls: string[];
  /** Absolute path of the UPD/invoice 5.03 schema posted formalized documents are checked against; unset: no check. */
  updXsd?: string;
}

/** 403 unless `boxId` (either form) is our box: Diadoc answers 403 for a box outside GetMyOrganizations. */
export function requireOurBox(ctx: SimContext, boxId: string | undefined, param = 'boxId'): void {
  if (!boxId) throw new DiadocError(400, 'InvalidParameter', `Parameter ${param} is required`);
  if (normalizeBoxId(boxId) !== normalizeBoxId(ctx.state.ours.boxGuid)) {
    throw new DiadocError(403, 'Http.Forbidden', `Access to box ${boxId} is denied for the current user`);
  }
}

/** Appends an event to the feed with the next sequence number. */
export function appendEvent(ctx: SimContext, e: Omit<SimEvent, 'seq' | 'eventId'>): void {
  const seq = (ctx.state.events.at(-1)?.seq ?? 0) + 1;
  ctx.state.events.push({ ...e, seq, eventId: ctx.ids.uuid() });
}

export const GUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
