import { buildSignedHeaders, randomIds, type Db } from '@app/shared';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import { buildApp, createServices, type Services } from '../../src/app.js';
import { RecordingOrderEvents } from './recording-order-events.js';
import type { Key, World } from '../harness.js';

/** Another instance of the delivery API on `db` (the world's database, or a second connection to it). */
export interface Instance {
  app: FastifyInstance;
  services: Services;
  call(key: Key, method: 'GET' | 'POST', url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

/** Builds a second app like the world's (same clock and secret box, so the world's keys work) on `db`. */
export async function secondInstance(w: World, db: Db): Promise<Instance> {
  const deps = {
    db,
    box: w.box,
    clock: w.clock,
    ids: randomIds,
    requestIdTtlSeconds: 600,
    heartbeatWindowSeconds: 90,
    masterKey: randomBytes(32),
    loyalty: null,
    events: new RecordingOrderEvents(),
  };
  const services = createServices(deps);
  const app = await buildApp(deps, services);
  await app.ready();
  const call: Instance['call'] = (key, method, url, body, headers = {}) => {
    const raw = body === undefined ? '' : JSON.stringify(body);
    const signed = buildSignedHeaders({
      apiKey: key.apiKey,
      secret: key.apiSecret,
      method,
      path: url.split('?')[0],
      body: raw,
      requestId: randomIds.uuid(),
      now: w.clock.now(),
    });
    return app.inject({
      method,
      url,
      payload: method === 'POST' ? raw : undefined,
      headers: { ...(method === 'POST' ? { 'content-type': 'application/json' } : {}), ...signed, ...headers },
    });
  };
  return { app, services, call };
}
