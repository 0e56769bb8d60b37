/**
 * The Delivery Partner API contract: TypeBox schemas of the partner API's wire shapes and the POS protocol, and
 * their `Static` types. No Fastify and no service code, so the API, the POS simulator and the partner SDK all
 * derive from it. Spec: /work/shared/spec/delivery-partner-api.md.
 */
export * from './typebox-helpers.js';
