import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEdoSimulator } from '@app/edo-simulator';
import { startEdoDemo } from '../../../../scripts/demo/edo-demo.js';
import { runEdoCli } from '../../src/edo/edo-cli.js';
import { masterKeyFile } from '../../src/edo/master-key.js';
import { startRecognitionService } from '../../src/server.js';
import { runKeysCli } from '../../src/keys/keys-cli.js';
import { FakeEngine } from '../fixtures.js';
import { gatewayRoutes } from './edo-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'edo-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the gateway through npm start's composition, over real HTTP", () => {
  it('serves every gateway route against the simulator with the demo key, and again after a restart', async () => {
    const opts = { dataDir: join(dir, 'svc'), port: 0, host: '127.0.0.1', engine: new FakeEngine(), workers: 0, demoApiKey: true as const }; // as npm start
    let svc = await startRecognitionService(opts);
    let demo = await startEdoDemo(svc.edo);
    try {
      expect(demo.usesSimulator).toBe(true);
      expect(statSync(masterKeyFile(opts.dataDir)).mode & 0o777).toBe(0o600);
      const call = (r: { method: string; url: string; body?: unknown }) =>
        fetch(`${svc.url}${r.url}`, {
          method: r.method,
          headers: { 'x-api-key': svc.apiKey!, ...(r.body ? { 'content-type': 'application/json' } : {}) },
          body: r.body ? JSON.stringify(r.body) : undefined,
        });
      const health = await call({ method: 'GET', url: '/api/v1/edo/health' });
      expect(await health.json()).toEqual({ status: 'connected', authenticated: true, organizations_count: 1, box_id: demo.sim.boxId });
      for (const r of gatewayRoutes(demo.sim)) expect(`${r.method} ${r.url} ${(await call(r)).status}`).toBe(`${r.method} ${r.url} 200`);
      const d = demo.sim.state.documents[7]!;
      const content = await call({ method: 'GET', url: `/api/v1/edo/documents/${d.messageId}/${d.entityId}/content` });
      expect(content.headers.get('content-disposition')).toContain(d.fileName);
      expect(Buffer.from(await content.arrayBuffer()).equals(d.content)).toBe(true);

      await svc.close();
      await demo.close();
      svc = await startRecognitionService(opts);
      demo = await startEdoDemo(svc.edo);
      expect(await (await call({ method: 'GET', url: '/api/v1/edo/health' })).json()).toMatchObject({ status: 'connected', box_id: demo.sim.boxId });
      expect((await svc.edo.show())!.revision).toBe(2);
    } finally {
      await svc.close();
      await demo.close();
    }
  });

  it('recognition-admin edo set | show | test | clear and keys --scopes over the same data folder', async () => {
    const sim = await startEdoSimulator();
    const env = {
      DATA_DIR: join(dir, 'cli'),
      DIADOC_CLIENT_SECRET: sim.clientSecret,
      DIADOC_REFRESH_TOKEN: sim.refreshToken,
      DIADOC_CLIENT_ID: sim.clientId,
      DIADOC_BOX_ID: sim.boxId,
    };
    const out: string[] = [];
    const run = async (argv: string[]) => {
      out.length = 0;
      return runEdoCli(argv, (l) => out.push(l), env);
    };
    try {
      expect(await run(['show'])).toBe(1);
      expect(await run(['set', '--issuer-url', sim.issuerUrl, '--api-base-url', sim.apiUrl])).toBe(0);
      expect(await run(['show'])).toBe(0);
      expect(out.join('\n')).toContain(sim.boxId);
      expect(out.join('\n')).not.toContain(sim.clientSecret);
      expect(out.join('\n')).not.toContain(sim.refreshToken);
      expect(await run(['test'])).toBe(0);
      expect(JSON.parse(out.join('\n'))).toMatchObject({ status: 'connected' });
      sim.idp.revokeAll();
      expect(await run(['test'])).toBe(1);
      expect(JSON.parse(out.join('\n'))).toMatchObject({ status: 'unauthorized' });
      expect(await run(['set', '--box-id', 'nope'])).toBe(1);
      expect(out[0]).toMatch(/^VALIDATION_ERROR: boxId:/);
      expect(await run(['set', '--colour', 'red'])).toBe(2);
      expect(await run(['clear'])).toBe(0);
      expect(await run(['show'])).toBe(1);

      const keysOut: string[] = [];
      const keyEnv = { DATA_DIR: join(dir, 'cli') };
      expect(await runKeysCli(['create', '--name', 'EDO robot', '--scopes', 'edo'], (l) => keysOut.push(l), keyEnv)).toBe(0);
      expect(keysOut[0]).toMatch(/scopes edo$/);
      const id = /created (key_[0-9a-f]+)/.exec(keysOut[0]!)![1]!;
      expect(await runKeysCli(['set-scopes', id, 'recognition,edo'], (l) => keysOut.push(l), keyEnv)).toBe(0);
      expect(await runKeysCli(['create', '--name', 'x', '--scopes', 'admin'], () => {}, keyEnv)).toBe(2);
      keysOut.length = 0;
      expect(await runKeysCli(['list'], (l) => keysOut.push(l), keyEnv)).toBe(0);
      expect(keysOut.find((l) => l.startsWith(id))).toMatch(/\trecognition,edo$/);
    } finally {
      await sim.close();
    }
  });
});
