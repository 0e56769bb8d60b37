/**
 * Partner SDK of the Delivery Partner API: a signing typed client, the reference webhook verifier and a demo
 * webhook receiver. Spec: delivery-partner-api.md (Authentication, Events, Errors).
 */
export { PartnerClient, type PartnerClientOptions, type PartnerResponse } from './client.js';
export { PartnerApiError, PartnerConnectionError, PartnerTimeoutError, toPartnerApiError } from './errors.js';
export { DEFAULT_RETRY, isSafeToRepeat, retryDecision, retryDelayMs, type RetryOptions } from './retry.js';
export * from './types.js';
export {
  verifyWebhook,
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  type VerifyWebhookInput,
  type VerifiedWebhook,
  type VerifiedOrderWebhook,
  type VerifiedCatalogWebhook,
  type WebhookHeaders,
} from './webhook-verifier.js';
export { WebhookVerificationError, type WebhookVerificationReason } from './webhook-errors.js';
export { ENVELOPE_FIELDS, ORDER_FIELDS, ROUTE_FIELDS } from './webhook-shape.js';
export { startDemoReceiver, type DemoReceiver, type DemoReceiverOptions } from './demo-receiver.js';
