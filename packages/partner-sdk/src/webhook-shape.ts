import type { WebhookVerificationError } from './webhook-errors.js';

/**
 * Field sets of a webhook body, used for the strict no-unknown-fields check. Spec: Events, Body, and
 * "Order view". The webhook `order` omits internal fields (the POS routing ids and route.tenantId; see
 * docs/webhooks.md), so `route` holds only `source` and `externalPointId`.
 * An additive server change (a new field) needs a new SDK version; the verifier refuses it until then.
 */
export const ENVELOPE_FIELDS = ['eventId', 'type', 'occurredAt', 'order'] as const;
export const ORDER_FIELDS = [
  'id',
  'externalOrderId',
  'source',
  'state',
  'payloadSha256',
  'route',
  'posOrderId',
  'posDeliveryId',
  'deliveryStatus',
  'deliveryStatusAt',
  'cancelState',
  'cancelReason',
  'cancelDetail',
  'createdAt',
  'updatedAt',
] as const;
export const ROUTE_FIELDS = ['source', 'externalPointId'] as const;

/**
 * Catalog events (sent only to sources with the server's per-source switch `catalog-events`): the envelope holds
 * `point` instead of `order`, naming the point and its new revision, or its new POS status.
 */
export const CATALOG_EVENT_FIELDS = ['eventId', 'type', 'occurredAt', 'point'] as const;
export const CATALOG_POINT_FIELDS: Record<string, readonly string[]> = {
  'menu.updated': ['pointId', 'revision'],
  'stoplist.updated': ['pointId', 'revision'],
  'point.status_changed': ['pointId', 'status'],
};

/** Fields of the order that may be null. */
const NULLABLE = new Set(['posOrderId', 'posDeliveryId', 'deliveryStatus', 'deliveryStatusAt', 'cancelReason', 'cancelDetail']);

type Fail = (reason: WebhookVerificationError['reason'], message: string) => never;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every key of `obj` is in `allowed` and every allowed key is present. */
function exactKeys(obj: Record<string, unknown>, allowed: readonly string[], where: string, fail: Fail): void {
  for (const k of Object.keys(obj)) {
    if (!allowed.includes(k)) fail('unknown_field', `unknown field "${where}${k}" in webhook body; update the SDK if the service added it`);
  }
  for (const k of allowed) if (!(k in obj)) fail('missing_field', `field "${where}${k}" is missing from the webhook body`);
}

/**
 * Checks the parsed body: envelope and order keys exactly as published, strings where strings are due (nullable
 * ones may be null). Throws through `fail`.
 */
export function checkWebhookShape(body: unknown, fail: Fail): void {
  if (!isObject(body)) fail('invalid_field', 'webhook body must be a JSON object');
  const pointFields = typeof body.type === 'string' ? CATALOG_POINT_FIELDS[body.type] : undefined;
  exactKeys(body, pointFields ? CATALOG_EVENT_FIELDS : ENVELOPE_FIELDS, '', fail);
  for (const k of ['eventId', 'type', 'occurredAt'] as const) {
    if (typeof body[k] !== 'string') fail('invalid_field', `field "${k}" must be a string`);
  }
  if (pointFields) {
    const point = body.point;
    if (!isObject(point)) fail('invalid_field', 'field "point" must be an object');
    exactKeys(point, pointFields, 'point.', fail);
    for (const k of pointFields) if (typeof point[k] !== 'string') fail('invalid_field', `field "point.${k}" must be a string`);
    return;
  }
  const order = body.order;
  if (!isObject(order)) fail('invalid_field', 'field "order" must be an object');
  exactKeys(order, ORDER_FIELDS, 'order.', fail);
  for (const k of ORDER_FIELDS) {
    if (k === 'route') continue;
    const v = order[k];
    if (!(typeof v === 'string' || (v === null && NULLABLE.has(k))))
      fail('invalid_field', `field "order.${k}" must be a string${NULLABLE.has(k) ? ' or null' : ''}`);
  }
  if (!isObject(order.route)) fail('invalid_field', 'field "order.route" must be an object');
  exactKeys(order.route, ROUTE_FIELDS, 'order.route.', fail);
  for (const k of ROUTE_FIELDS) if (typeof order.route[k] !== 'string') fail('invalid_field', `field "order.route.${k}" must be a string`);
}

/**
 * Index just past the top-level JSON value that starts at the first non-space character, or -1 when it is not
 * an object/array that closes. Lets the verifier name trailing data precisely instead of a generic parse error.
 */
export function endOfTopLevelValue(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = text.search(/\S/); i >= 0 && i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
