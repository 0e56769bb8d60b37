import { randomBytes } from 'node:crypto';
import { ManualClock } from '@app/shared';
import { startEdoSimulator, type RunningEdoSimulator, type StartEdoSimulatorOptions } from '@app/edo-simulator';
import type { LightMyRequestResponse } from 'fastify';
import { diadocOperatorFactory } from '../../src/edo/diadoc/diadoc-factory.js';
import { simulatorUpdWriter } from '../../src/formalized/index.js';
import type { RecognitionAppDeps } from '../../src/app.js';
import { makeHarness, type Harness } from '../harness.js';

/** The recognition app wired to a Diadoc simulator (shared ManualClock; back-off sleeps skipped). */
export interface EdoHarness {
  h: Harness;
  sim: RunningEdoSimulator;
  clock: ManualClock;
  /** Keys by scope: recognition only (the harness's keyA), edo only, both. */
  keys: { recognition: string; edo: string; both: string };
  /** Stores the simulator's connection through the admin service. */
  connect(): Promise<void>;
  inject(method: string, url: string, opts?: { key?: string; body?: unknown; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** `sim`: further simulator options, e.g. `updXsd` to turn its XSD check of posted UPDs on. */
export async function makeEdoHarness(
  opts: { connect?: boolean; timeoutMs?: number; app?: Partial<RecognitionAppDeps>; sim?: Pick<StartEdoSimulatorOptions, 'updXsd'> } = {},
): Promise<EdoHarness> {
  const clock = new ManualClock('2026-11-23T09:05:00Z');
  const sim = await startEdoSimulator({ clock, writeFormalized: simulatorUpdWriter, ...opts.sim });
  const h = await makeHarness({
    ...opts.app,
    clock,
    edo: { masterKey: randomBytes(32), operatorFactory: diadocOperatorFactory({ clock, timeoutMs: opts.timeoutMs ?? 5000, sleep: async () => {} }) },
  });
  const keys = {
    recognition: h.keyA,
    edo: (await h.services.keys.create('edo only', undefined, ['edo'])).key,
    both: (await h.services.keys.create('both', undefined, ['recognition', 'edo'])).key,
  };
  const connect = async () => {
    await h.services.edo.connection.set({
      clientId: sim.clientId,
      clientSecret: sim.clientSecret,
      refreshToken: sim.refreshToken,
      boxId: sim.boxId,
      issuerUrl: sim.issuerUrl,
      apiBaseUrl: sim.apiUrl,
    });
  };
  if (opts.connect !== false) await connect();
  return {
    h,
    sim,
    clock,
    keys,
    connect,
    inject: (method, url, o = {}) =>
      h.app.inject({
        method: method as 'GET',
        url,
        payload: o.body as never,
        headers: { ...(o.key === '' ? {} : { 'x-api-key': o.key ?? keys.edo }), ...o.headers },
      }),
    async close() {
      await h.close();
      await sim.close();
    },
  };
}

/** Every gateway route with a valid example URL (ids from the seeded box) and body. */
export function gatewayRoutes(sim: RunningEdoSimulator): { method: string; url: string; body?: unknown }[] {
  const d = sim.state.documents[0]!;
  const u = sim.state.employees[1]!.userId;
  return [
    { method: 'GET', url: '/api/v1/edo/health' },
    { method: 'GET', url: '/api/v1/edo/documents?filterCategory=Any.Inbound' },
    { method: 'GET', url: `/api/v1/edo/documents/${d.messageId}/${d.entityId}` },
    { method: 'GET', url: `/api/v1/edo/documents/${d.messageId}/${d.entityId}/content` },
    {
      method: 'POST',
      url: '/api/v1/edo/documents/send',
      body: {
        ToBoxId: sim.state.counteragents[0]!.boxGuid,
        DocumentAttachments: [
          {
            TypeNamedId: { Name: 'Nonformalized', Version: 'v1' },
            SignedContent: { Content: 'aGVsbG8=' },
            Metadata: [{ Key: 'FileName', Value: 'hello.txt' }],
          },
        ],
      },
    },
    { method: 'POST', url: '/api/v1/edo/documents/search', body: { query: 'УПД' } },
    { method: 'DELETE', url: `/api/v1/edo/documents/${sim.state.documents[1]!.messageId}` },
    { method: 'GET', url: '/api/v1/edo/events' },
    { method: 'GET', url: '/api/v1/edo/employees?page=1&count=10' },
    { method: 'GET', url: '/api/v1/edo/employees/me' },
    { method: 'GET', url: `/api/v1/edo/employees/${u}` },
    {
      method: 'POST',
      url: '/api/v1/edo/employees',
      body: {
        Credentials: { Login: 'route@sim.example', FullName: { LastName: 'Орлов', FirstName: 'Кирилл' } },
        Position: 'Логист',
        Permissions: { IsAdministrator: false, DocumentAccessLevel: 'AllDocuments' },
      },
    },
    { method: 'PUT', url: `/api/v1/edo/employees/${u}`, body: { Position: 'Главный бухгалтер' } },
    { method: 'DELETE', url: `/api/v1/edo/employees/${sim.state.employees[3]!.userId}` },
    { method: 'GET', url: '/api/v1/edo/organizations' },
    { method: 'GET', url: '/api/v1/edo/organizations/current' },
    { method: 'GET', url: `/api/v1/edo/organizations/search?inn=${sim.state.counteragents[0]!.inn}` },
    { method: 'GET', url: '/api/v1/edo/counteragents' },
  ];
}
