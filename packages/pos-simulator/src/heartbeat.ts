import type { CatalogContext } from './catalog-sync.js';
import { errFields } from './log.js';
import type { Terminal } from './terminal.js';

/**
 * Sends one heartbeat for the terminal (`POST /pos/v1/heartbeat`); the server counts the terminal alive for
 * `aliveWindowSeconds` after it (spec: Point.acceptsOrders needs a live terminal). Logs a failure, never throws.
 * @returns true when the server accepted it.
 */
export async function sendHeartbeat(t: Terminal, ctx: CatalogContext): Promise<boolean> {
  try {
    const reply = await t.client.heartbeat();
    t.aliveAt = ctx.clock.now().getTime();
    ctx.log.info({ pointId: t.pointId, aliveWindowSeconds: reply.aliveWindowSeconds }, 'heartbeat');
    return true;
  } catch (err) {
    t.lastError = { what: 'heartbeat', code: (err as { code?: string }).code ?? 'error', at: ctx.clock.now().getTime() };
    ctx.log.warn({ pointId: t.pointId, err: errFields(err) }, 'heartbeat failed; sent again next round');
    return false;
  }
}
