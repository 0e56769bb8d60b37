import type { Clock } from '@app/shared';
import type { MenuPush, PushReply } from './pos-client.js';
import { errFields, type SimLogger } from './log.js';
import { PUSH_ORDER, type PushKind, type Terminal } from './terminal.js';

/** What a catalog sync needs besides the terminal. */
export interface CatalogContext {
  clock: Clock;
  log: SimLogger;
}

/** The chain's one menu, as every terminal group pushes its own copy of it (prices in kopecks). */
export function menuBody(t: Terminal): MenuPush {
  return { categories: t.chain.menu.categories, items: t.chain.menu.items };
}

function push(t: Terminal, kind: PushKind): Promise<PushReply> {
  switch (kind) {
    case 'menu':
      return t.client.pushMenu(menuBody(t));
    case 'stopList':
      return t.client.pushStopList(t.stopList);
    case 'streets':
      return t.client.pushStreets(t.chain.streetDictionaries[t.point.streetsKey!]);
    case 'productMappings':
      return t.client.pushProductMappings(t.chain.productMappings);
  }
}

/**
 * Sends every push the terminal owes, in {@link PUSH_ORDER}. A failed push is logged and stays owed, so the
 * next round retries it; later pushes are still tried. Never throws.
 * @returns the number of pushes that failed.
 */
export async function syncPending(t: Terminal, ctx: CatalogContext): Promise<number> {
  let failed = 0;
  for (const kind of PUSH_ORDER) {
    if (!t.pending.has(kind)) continue;
    // The stop-list can change while its push is in flight; only the list that was sent is settled.
    const sentStopList = t.stopList;
    try {
      const reply = await push(t, kind);
      if (kind !== 'stopList' || t.stopList === sentStopList) t.pending.delete(kind);
      if (kind === 'menu') t.menuPushedAt = ctx.clock.now().getTime();
      ctx.log.info({ pointId: t.pointId, kind, revision: reply.revision, changed: reply.changed }, 'catalog pushed');
    } catch (err) {
      failed += 1;
      t.lastError = { what: kind, code: (err as { code?: string }).code ?? 'error', at: ctx.clock.now().getTime() };
      ctx.log.warn({ pointId: t.pointId, kind, err: errFields(err) }, 'catalog push failed; retried next round');
    }
  }
  return failed;
}

/** Owes a fresh menu when the last accepted one is older than `menuMs` (clock time), or there was none. */
export function oweMenuIfDue(t: Terminal, now: Date, menuMs: number): void {
  if (t.menuPushedAt === null || now.getTime() - t.menuPushedAt >= menuMs) t.owe('menu');
}
