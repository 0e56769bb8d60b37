/**
 * Shapes of the order part of the POS protocol as the plugin sees them. The delivery API owns them (one TypeBox
 * schema per wire shape, `@app/delivery-api/pos-protocol`); the simulator imports only their types, so nothing of
 * the server runs inside the plugin. Amounts in kopecks, timestamps RFC 3339 UTC. Source: docs/pos-protocol.md.
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
} from '@app/delivery-api/pos-protocol';
