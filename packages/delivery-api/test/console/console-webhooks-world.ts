import { createWebhookDispatcher } from '../../src/webhooks/dispatcher.js';
import { makeWorld, squareZone, type World } from '../harness.js';
import { driveToDead, memoryLog, startReceiver } from '../webhooks/webhook-world.js';
import { addConsoleAccounts } from './console-client.js';

/**
 * The world of the console's webhooks and chain tests (in process and in Chromium): the harness's chain with the
 * console's two accounts, zone `z1` at point 1 (plus `extraZones`), and a receiver that answers 503 while
 * `control.failing` (true at first) and 204 once a test sets it false.
 */
export async function makeConsoleWebhooksWorld(extraZones: ReturnType<typeof squareZone>[] = []) {
  const w: World = await makeWorld();
  await addConsoleAccounts(w);
  const control = { failing: true };
  const receiver = await startReceiver(() => ({ status: control.failing ? 503 : 204 }));
  await w.operator.loadZones('t1', { type: 'FeatureCollection', features: [squareZone('z1', '1', 55.76, 37.61, 0.02), ...extraZones] });
  const dispatcher = () => createWebhookDispatcher({ db: w.db, box: w.box, clock: w.clock, log: memoryLog() });
  return {
    w,
    receiver,
    control,
    dispatcher,
    /** An `order.state_changed` event of `website` sent through the whole retry schedule to the failing receiver. */
    deadDelivery: () => driveToDead(w, { type: 'order.state_changed' }),
    async close(): Promise<void> {
      await receiver.close();
      await w.app.close();
    },
  };
}
