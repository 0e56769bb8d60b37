import { describe, expect, it } from 'vitest';
import type { ListenHandlers, Subscription } from '@app/shared';
import type { Credential } from '../../src/auth/credentials.repo.js';
import { ApiError } from '../../src/errors.js';
import { CATALOG_CHANNEL, CatalogRevisionCache, type RoutedPoint } from '../../src/catalog/catalog-revision-cache.js';

const cred = { tenantId: 't1', source: 'website', pointIds: ['1', '2'] } as Credential;
const point = (pointId: string, tg = 'tg-1'): RoutedPoint =>
  ({ tenantId: 't1', pointId, route: { organizationId: 'org', terminalGroupId: tg, active: true } }) as unknown as RoutedPoint;

/** A scriptable LISTEN: the test delivers notifications and losses by hand. */
function fakeListen() {
  const state: { handlers: ListenHandlers | null; channel: string | null; closed: boolean } = { handlers: null, channel: null, closed: false };
  const listen = async (channel: string, handlers: ListenHandlers): Promise<Subscription> => {
    state.channel = channel;
    state.handlers = handlers;
    handlers.listening?.();
    return { active: true, close: async () => void (state.closed = true) };
  };
  return { state, listen };
}

function makeCache(listen?: ReturnType<typeof fakeListen>['listen']) {
  const reads: string[] = [];
  const cache = new CatalogRevisionCache({
    db: { listen },
    points: {
      requireRouted: async (_c, pointId) => {
        reads.push(pointId);
        if (pointId === '2') throw new ApiError('not_found', {}, 'no route');
        return point(pointId);
      },
    },
  });
  return { cache, reads };
}

describe('CatalogRevisionCache', () => {
  it('does not serve before LISTEN is in effect, then serves from the second call', async () => {
    const l = fakeListen();
    const { cache, reads } = makeCache(l.listen);
    await cache.routedPoint(cred, '1');
    await cache.routedPoint(cred, '1');
    expect(reads).toEqual(['1', '1']);
    await cache.start();
    expect(l.state.channel).toBe(CATALOG_CHANNEL);
    await cache.routedPoint(cred, '1');
    await cache.routedPoint(cred, '1');
    expect(reads).toEqual(['1', '1', '1']);
  });

  it('a lost listener disables the cache and clears it; a re-LISTEN enables it again', async () => {
    const l = fakeListen();
    const { cache, reads } = makeCache(l.listen);
    await cache.start();
    await cache.routedPoint(cred, '1');
    l.state.handlers!.lost!(new Error('connection reset'));
    expect(cache.serving).toBe(false);
    await cache.routedPoint(cred, '1');
    await cache.routedPoint(cred, '1');
    expect(reads).toEqual(['1', '1', '1']);
    l.state.handlers!.listening!();
    await cache.routedPoint(cred, '1');
    await cache.routedPoint(cred, '1');
    expect(reads).toEqual(['1', '1', '1', '1']);
  });

  it('a notification evicts the entries it names: its terminal group, its point, or everything', async () => {
    const l = fakeListen();
    const { cache, reads } = makeCache(l.listen);
    await cache.start();
    await cache.routedPoint(cred, '1');
    l.state.handlers!.notify('tg:org/tg-other');
    l.state.handlers!.notify('point:t1/9');
    await cache.routedPoint(cred, '1');
    expect(reads).toEqual(['1']);
    for (const payload of ['tg:org/tg-1', 'point:t1/1', '*']) {
      l.state.handlers!.notify(payload);
      await cache.routedPoint(cred, '1');
      await cache.routedPoint(cred, '1');
    }
    expect(reads).toEqual(['1', '1', '1', '1']);
  });

  it('a read that raced with a notification is not stored', async () => {
    const l = fakeListen();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let n = 0;
    const cache = new CatalogRevisionCache({
      db: { listen: l.listen },
      points: {
        requireRouted: async (_c, pointId) => {
          n++;
          if (n === 1) await gate;
          return point(pointId);
        },
      },
    });
    await cache.start();
    const first = cache.routedPoint(cred, '1');
    l.state.handlers!.notify('tg:org/tg-1'); // arrives while the first read is in flight
    release();
    await first;
    await cache.routedPoint(cred, '1');
    expect(n).toBe(2);
  });

  it('checks the key’s point scope on every call and never caches a 404', async () => {
    const l = fakeListen();
    const { cache, reads } = makeCache(l.listen);
    await cache.start();
    await cache.routedPoint(cred, '1');
    await expect(cache.routedPoint({ ...cred, pointIds: ['2'] } as Credential, '1')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(cache.routedPoint(cred, '2')).rejects.toMatchObject({ code: 'not_found' });
    await expect(cache.routedPoint(cred, '2')).rejects.toMatchObject({ code: 'not_found' });
    expect(reads).toEqual(['1', '2', '2']);
  });

  it('without listen on the database (a wrapper) or after stop, it never serves', async () => {
    const { cache, reads } = makeCache(undefined);
    await cache.start();
    await cache.routedPoint(cred, '1');
    await cache.routedPoint(cred, '1');
    expect(reads).toEqual(['1', '1']);
    const l = fakeListen();
    const other = makeCache(l.listen);
    await other.cache.start();
    await other.cache.stop();
    expect(l.state.closed).toBe(true);
    await other.cache.routedPoint(cred, '1');
    await other.cache.routedPoint(cred, '1');
    expect(other.reads).toEqual(['1', '1']);
  });
});
