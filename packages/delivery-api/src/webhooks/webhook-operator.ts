import { systemClock, type Clock, type Db } from '@app/shared';
import { DeliveriesRepo, type AttemptInfo, type DeliveryInfo } from './deliveries.repo.js';
import { listWebhookConfigs, type WebhookEndpointInfo } from './webhook-config.js';

export type { AttemptInfo, DeliveryInfo };

/** Endpoints with the count of their deliveries per status. Never shows secrets. */
export async function showWebhooks(db: Db, tenantId?: string): Promise<(WebhookEndpointInfo & { counts: Record<string, number> })[]> {
  const eps = await listWebhookConfigs(db, tenantId);
  const counts = await new DeliveriesRepo(db).countsByEndpoint();
  return eps.map((e) => ({
    ...e,
    counts: Object.fromEntries(counts.filter((c) => c.tenantId === e.tenantId && c.source === e.source).map((c) => [c.status, c.n])),
  }));
}

/** Deliveries of one order (with attempts), newest first. */
export async function deliveriesOfOrder(db: Db, orderId: string): Promise<(DeliveryInfo & { attemptLog: AttemptInfo[] })[]> {
  const repo = new DeliveriesRepo(db);
  const rows = await repo.ofOrder(orderId);
  return Promise.all(rows.map(async (d) => ({ ...d, attemptLog: await repo.attemptsOf(d.deliveryId) })));
}

/** Attempt log of one delivery, oldest first. */
export async function attemptsOf(db: Db, deliveryId: string): Promise<AttemptInfo[]> {
  return new DeliveriesRepo(db).attemptsOf(deliveryId);
}

/** Deliveries of a source (optionally one tenant and one status), newest first, at most `limit`. */
export async function deliveriesOfSource(
  db: Db,
  f: { source: string; tenantId?: string; status?: DeliveryInfo['status']; limit?: number },
): Promise<DeliveryInfo[]> {
  return new DeliveriesRepo(db).ofSource(f);
}

/**
 * Queues a delivery again, now, with a fresh retry schedule; the eventId and body stay the same (the receiver
 * de-duplicates). Allowed for dead, delivered and pending deliveries, but not while an attempt is in flight.
 * @throws WebhookOperatorError when the delivery does not exist or is being sent.
 */
export async function replayDelivery(db: Db, deliveryId: string, clock: Clock = systemClock): Promise<DeliveryInfo> {
  const repo = new DeliveriesRepo(db);
  const outcome = await repo.requeue(deliveryId, clock.now());
  if (outcome !== 'requeued') {
    throw new WebhookOperatorError(
      outcome === 'in_flight' ? `delivery ${deliveryId} is being sent right now; try again in a minute` : `no delivery ${deliveryId}`,
    );
  }
  return (await repo.info(deliveryId))!;
}

/** Queues again every dead delivery of a source whose event occurred at or after `since`; returns how many. */
export async function replayDead(db: Db, f: { source: string; tenantId?: string; since: Date }, clock: Clock = systemClock): Promise<number> {
  return new DeliveriesRepo(db).requeueDead(f, clock.now());
}

/** A refused operator request (unknown delivery, delivery in flight). */
export class WebhookOperatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookOperatorError';
  }
}
