import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_VERSION } from '../../src/status/status.service.js';
import { makeWorld, sampleMenu, type World } from '../harness.js';

let w: World;
beforeAll(async () => {
  w = await makeWorld();
  await w.operator.sourceFeatures('t1', 'website', 'guest-api');
}, 120_000);
afterAll(async () => {
  await w.app.close();
  await w.db.close();
});

describe('GET /v1/status (switch guest-api)', () => {
  it('reports per point the menu and stop-list revision and push time, heartbeat age and liveness, and the version', async () => {
    expect((await w.call(w.pos['1'], 'POST', '/pos/v1/menu', sampleMenu())).statusCode).toBe(200);
    expect((await w.call(w.pos['1'], 'POST', '/pos/v1/heartbeat', {})).statusCode).toBe(200);
    const pushedAt = w.clock.now().toISOString();
    w.clock.advance(30_000);
    const r = await w.call(w.partner, 'GET', '/v1/status');
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.service).toEqual({ version: SERVICE_VERSION, time: w.clock.now().toISOString() });
    expect(SERVICE_VERSION).toMatch(/^\d+\.\d+\.\d+/);
    const p1 = body.points.find((p: { pointId: string }) => p.pointId === '1');
    expect(p1).toMatchObject({
      active: true,
      menu: { revision: expect.any(String), pushedAt },
      stopList: { revision: null, pushedAt: null },
      pos: { lastHeartbeatAt: pushedAt, heartbeatAgeSeconds: 30, alive: true },
    });
    const p2 = body.points.find((p: { pointId: string }) => p.pointId === '2');
    expect(p2.pos).toEqual({ lastHeartbeatAt: null, heartbeatAgeSeconds: null, alive: false });
    expect(body.points.find((p: { pointId: string }) => p.pointId === '3').active).toBe(false);
  });

  it('marks a terminal dead once its heartbeat is older than the window (90 s)', async () => {
    w.clock.advance(61_000);
    const p1 = (await w.call(w.partner, 'GET', '/v1/status')).json().points.find((p: { pointId: string }) => p.pointId === '1');
    expect(p1.pos).toMatchObject({ heartbeatAgeSeconds: 91, alive: false });
  });
});
