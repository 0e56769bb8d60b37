export * from './chain.js';
export * from './chain.schema.js';
export * from './zones.js';
export * from './pos-client.js';
export * from './simulator.js';
export * from './pos-orders.types.js';
export {
  cancelDecision,
  decideOutcome,
  DELIVERY_WALK,
  nextCreationState,
  nextDeliveryStatus,
  refuseTagged,
  type CreationOutcome,
  type RefusalRule,
  type SimOrder,
} from './sim-order.js';
export { loadCredentials, parseCredentials } from './credentials.js';
export { rotateStopList, seededRandom, type RandomSource, type StopListChange } from './stop-list-rotation.js';
export { consoleLogger, toLogger, type SimLog, type SimLogger } from './log.js';
export type { PushKind } from './terminal.js';
