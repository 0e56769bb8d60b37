/**
 * The panel's accounts and roles, per-key usage counts, retry of a failed document and the review filter
 * (docs/admin-panel.md: "Accounts and roles", "Usage per key", "Retry", "Needs review").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualCheckRecommended } from '../../src/engine/confidence/confidence.js';
import { runWorkerStep } from '../../src/jobs/worker.js';
import { pngPage, recognizeForm } from '../fixtures.js';
import type { Harness } from '../harness.js';
import { ADMIN_USER, makeAdminHarness, PanelClient } from './admin-harness.js';

const VIEWER = 'auditor';
const VIEWER_PASSWORD = 'viewer password 123';

let h: Harness;
let admin: PanelClient;
beforeAll(async () => {
  h = await makeAdminHarness();
  admin = new PanelClient(h.app);
  expect((await admin.signIn()).statusCode).toBe(303);
});
afterAll(() => h.close());

const upload = async (fields: Record<string, string> = {}) =>
  (
    await h.app.inject({
      method: 'POST',
      url: '/api/v1/recognize',
      headers: { 'x-api-key': h.keyA },
      payload: recognizeForm([await pngPage()], fields),
    })
  ).json().id as string;

const auditActions = async () => (await h.services.admin.audit.latest()).map((e) => `${e.action} ${e.target}`);

describe('accounts and roles', () => {
  it('an admin creates a viewer in the panel; the viewer reads but every change is refused with 403', async () => {
    await admin.get('/admin/users');
    const created = await admin.post('/admin/users', { username: VIEWER, password: VIEWER_PASSWORD, role: 'viewer' });
    expect(created.statusCode).toBe(303);
    expect((await admin.get('/admin/users')).body).toContain(VIEWER);
    expect(await auditActions()).toContain(`user.create ${VIEWER}`);

    const viewer = new PanelClient(h.app);
    expect((await viewer.signIn(VIEWER, VIEWER_PASSWORD)).statusCode).toBe(303);
    const keys = await viewer.get('/admin/keys');
    expect(keys.statusCode).toBe(200);
    expect(keys.body).toContain('Наблюдатель');
    expect(keys.body).not.toContain('action="/admin/keys"'); // no create form
    expect(keys.body).not.toContain('/deactivate');
    const users = await viewer.get('/admin/users');
    expect(users.body).not.toContain('action="/admin/users"');

    await viewer.get('/admin/keys');
    const [key] = await h.services.keys.list();
    for (const [url, form] of [
      ['/admin/keys', { name: 'x', scopes: 'recognition' }],
      [`/admin/keys/${key!.id}/deactivate`, {}],
      [`/admin/keys/${key!.id}/rotate-secret`, {}],
      ['/admin/users', { username: 'mallory', password: 'a long enough password', role: 'admin' }],
      [`/admin/users/${ADMIN_USER}/disable`, {}],
      ['/admin/edo/disconnect', {}],
    ] as const) {
      const res = await viewer.post(url, form);
      expect(res.statusCode, url).toBe(403);
      expect(res.body).toContain('наблюдатель');
    }
    expect((await h.services.keys.list()).find((k) => k.id === key!.id)!.deactivatedAt).toBeNull();
    expect(await h.services.admin.repo.getUser('mallory')).toBeNull();
    // Signing out is not a change: a viewer may.
    expect((await viewer.post('/admin/logout')).statusCode).toBe(303);
  });

  it('a viewer changes their own password', async () => {
    const viewer = new PanelClient(h.app);
    await viewer.signIn(VIEWER, VIEWER_PASSWORD);
    await viewer.get('/admin/account');
    const res = await viewer.post('/admin/account/password', {
      currentPassword: VIEWER_PASSWORD,
      newPassword: 'new viewer password',
      repeatPassword: 'new viewer password',
    });
    expect(res.statusCode).toBe(303);
    expect(await auditActions()).toContain(`auth.password ${VIEWER}`);
  });

  it('disabling an account ends its sessions and refuses its sign-in; the role change applies at once', async () => {
    const viewer = new PanelClient(h.app);
    expect((await viewer.signIn(VIEWER, 'new viewer password')).statusCode).toBe(303);
    await admin.get('/admin/users');
    expect((await admin.post(`/admin/users/${VIEWER}/role`, { role: 'admin' })).statusCode).toBe(303);
    expect((await viewer.get('/admin/keys')).body).toContain('action="/admin/keys"');
    await admin.post(`/admin/users/${VIEWER}/role`, { role: 'viewer' });

    expect((await admin.post(`/admin/users/${VIEWER}/disable`)).statusCode).toBe(303);
    const after = await viewer.get('/admin/keys');
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toContain('/admin/login');
    expect((await new PanelClient(h.app).signIn(VIEWER, 'new viewer password')).statusCode).toBe(401);
    expect(await auditActions()).toEqual(expect.arrayContaining([`user.disable ${VIEWER}`, `user.role ${VIEWER}`]));

    // The last enabled admin cannot lock everyone out.
    await admin.get('/admin/users');
    const self = await admin.post(`/admin/users/${ADMIN_USER}/disable`);
    expect(self.statusCode).toBe(422);
    expect((await h.services.admin.repo.getUser(ADMIN_USER))!.disabledAt).toBeNull();
    expect((await admin.post(`/admin/users/${VIEWER}/enable`)).statusCode).toBe(303);
  });
});

describe('retry of a failed document', () => {
  it('puts a failed document back in the queue like an upload; a worker then recognises it; audit logged', async () => {
    const id = await upload();
    await h.db.query(
      `UPDATE documents SET status = 'failed', attempts = 3, completed_at = $2, processing_time_ms = 10, error_code = 'RECOGNITION_FAILED', error_message = 'x' WHERE id = $1`,
      [id, h.clock.now()],
    );
    const page = await admin.get(`/admin/documents/${id}`);
    expect(page.body).toContain(`action="/admin/documents/${id}/retry"`);
    const res = await admin.post(`/admin/documents/${id}/retry`);
    expect(res.statusCode).toBe(303);
    const queued = (await h.services.docs.getById(id))!;
    expect(queued).toMatchObject({ status: 'queued', attempts: 0, errorCode: null });
    expect(await auditActions()).toContain(`document.retry ${id}`);
    await runWorkerStep({ queue: h.services.queue, processor: h.services.processor, clock: h.clock });
    expect((await h.services.docs.getById(id))!.status).toBe('completed');
    // Only a failed document: a second retry is refused and changes nothing.
    await admin.get(`/admin/documents/${id}`);
    expect((await admin.post(`/admin/documents/${id}/retry`)).statusCode).toBe(422);
    expect((await h.services.docs.getById(id))!.status).toBe('completed');
  });
});

describe('needs-review filter', () => {
  it('selects exactly the completed documents with manual_check_recommended', async () => {
    const cases = [
      { ref: 'rv-low', confidence: 0.75, warnings: [] },
      {
        ref: 'rv-doubt',
        confidence: 0.95,
        warnings: [{ field: 'seller.name', message: 'seller name read with low confidence (0.60); check it against the page' }],
      },
      { ref: 'rv-corrective', confidence: 0.95, warnings: [{ field: 'document', message: 'corrective document: not read' }] },
      { ref: 'rv-clean', confidence: 0.95, warnings: [{ field: 'buyer.kpp', message: 'KPP has 8 digits' }] },
      { ref: 'rv-perfect', confidence: 1, warnings: [] },
    ];
    for (const c of cases) {
      const id = await upload({ client_ref: c.ref });
      await h.db.query(`UPDATE documents SET status = 'completed', confidence = $2, warnings = $3::json WHERE id = $1`, [
        id,
        c.confidence,
        JSON.stringify(c.warnings),
      ]);
    }
    const list = await admin.get('/admin/documents?review=1&q=rv-');
    expect(list.statusCode).toBe(200);
    const shown = cases.filter((c) => list.body.includes(`>${c.ref}<`)).map((c) => c.ref);
    expect(shown).toEqual(cases.filter((c) => manualCheckRecommended(c.confidence, c.warnings)).map((c) => c.ref));
    expect(shown).toEqual(['rv-low', 'rv-doubt', 'rv-corrective']);
  });
});

describe('usage per key', () => {
  it('counts requests and error answers per key for the last 24 hours and 7 days', async () => {
    const created = await h.services.keys.create('Usage', undefined, ['recognition']);
    const call = (url: string) => h.app.inject({ method: 'GET', url, headers: { 'x-api-key': created.key } });
    expect((await call('/api/v1/documents')).statusCode).toBe(200);
    expect((await call('/api/v1/documents')).statusCode).toBe(200);
    expect((await call('/api/v1/documents/doc_missing')).statusCode).toBe(404);
    const row = (body: string) => body.slice(body.indexOf('<td>Usage</td>'), body.indexOf('</tr>', body.indexOf('<td>Usage</td>')));
    const page = await admin.get('/admin/keys');
    expect(row(page.body)).toContain('24 ч: 3 / 1<br>7 дн: 3 / 1');

    // The clock moves by days, past the session's 12 hours: sign in again to look.
    h.clock.advance(2 * 24 * 3_600_000);
    await call('/api/v1/documents');
    await admin.signIn();
    expect(row((await admin.get('/admin/keys')).body)).toContain('24 ч: 1 / 0<br>7 дн: 4 / 1');
    h.clock.advance(8 * 24 * 3_600_000);
    await admin.signIn();
    expect(row((await admin.get('/admin/keys')).body)).toContain('24 ч: 0 / 0<br>7 дн: 0 / 0');
  });
});
