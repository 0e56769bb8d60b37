/**
 * The Delivery Partner API contract: TypeBox schemas of the partner API's wire shapes and the POS protocol, and
 * their `Static` types. No Fastify and no service code, so the API, the POS simulator and the partner SDK all
 * derive from it. Spec: delivery-partner-api.md (partner API), docs/pos-protocol.md (POS protocol).
 */
export { literals, Nullable, strict } from '@app/shared/typebox';
export * from './money.js';
export * from './common.schemas.js';
export * from './order-view.js';
export * from './orders.schemas.js';
export * from './checkout.schemas.js';
export * from './catalog.schemas.js';
export * from './zones.schemas.js';
export * from './pos-protocol.js';
export * from './pos-catalog.schemas.js';
export * from './points.schemas.js';
export * from './guests.schemas.js';
export * from './status.schemas.js';
export * from './webhooks.types.js';
