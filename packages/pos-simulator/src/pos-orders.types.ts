/**
 * Shapes of the order part of the POS protocol as the plugin sees them, from the delivery contract (one TypeBox
 * schema per wire shape, `@app/delivery-contract`), which the server uses too; nothing of the server runs inside
 * the plugin. Amounts in kopecks, timestamps RFC 3339 UTC. Source: docs/pos-protocol.md.
 */
export type {
  CancelDetail,
  CancellationRequest,
  CancelResultReport,
  ClaimedOrder,
  DeliveryStatus,
  DeliveryStatusReport,
  PosOrderPayload,
  PosOrderView,
  PosReportedState,
  StateReport,
  StreetStatus,
} from '@app/delivery-contract';
