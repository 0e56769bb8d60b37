/**
 * Signed webhooks of the delivery API: transactional outbox, dispatcher, configuration and operator tools.
 * Spec: delivery-partner-api.md, Events. Decisions: docs/webhooks.md.
 */
import { randomIds, type IdSource } from '@app/shared';
import type { OrderEvents } from '../orders/order-events.js';
import { createOutboxOrderEvents } from './outbox.js';

export { WEBHOOK_EVENT_TYPES, enqueueOrderEvent, createOutboxOrderEvents, type WebhookEventType, type OrderEventInput } from './outbox.js';
export { createWebhookDispatcher, type WebhookDispatcher, type WebhookDispatcherOptions, type WebhookLog } from './dispatcher.js';
export { setWebhookConfig, listWebhookConfigs, WebhookConfigError, type WebhookConfigInput, type WebhookEndpointInfo } from './webhook-config.js';
export { DEFAULT_WEBHOOK_TIMEOUT_MS, type WebhookSender, type WebhookRequest } from './webhook-sender.port.js';
export { createHttpWebhookSender } from './webhook-sender.http.js';
export { RETRY_DELAYS_SECONDS } from './retry-schedule.js';
export { toWebhookOrder, type WebhookOrder, type WebhookBody } from './webhook-body.js';
export { runWebhookCommand, type WebhookCliDeps } from './webhook-cli.js';
export * from './webhook-operator.js';

/** The orders feature's `OrderEvents` port backed by the outbox (new eventIds from `ids`, default random). */
export function createOutboxEvents(ids: IdSource = randomIds): OrderEvents {
  return createOutboxOrderEvents(ids);
}
