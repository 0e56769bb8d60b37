// Request bodies recorded by the fake API are untyped JSON; `any` keeps the assertions on them readable.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeData, pngPage } from '../../../test/fixtures.js';
import { RecognitionFailedError } from '../engine.port.js';
import { AiEngine } from './ai-engine.js';

/** A local fake of the OpenAI-compatible API: records requests, answers what the test scripts. */
let server: Server;
let baseUrl: string;
let requests: { url: string; auth: string | undefined; body: any }[] = [];
let reply: { status: number; body: unknown; delayMs?: number } = { status: 200, body: {} };

const completion = (content: unknown) => ({ choices: [{ message: { role: 'assistant', content: JSON.stringify(content) } }] });

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({ url: req.url!, auth: req.headers.authorization, body: text ? JSON.parse(text) : null });
      const send = () => {
        res.writeHead(req.url === '/v1/models' ? 200 : reply.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(req.url === '/v1/models' ? { data: [] } : reply.body));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs); else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  requests = [];
});

const engine = (timeoutMs = 5000) => new AiEngine({ baseUrl, apiKey: 'sk-test', model: 'vision-1', timeoutMs });

describe('AiEngine against a fake chat completions API', () => {
  it('sends images as data URLs with the JSON schema and returns the recognised data', async () => {
    reply = { status: 200, body: completion({ document_type: 'torg12', ...makeData(), seller: { ...makeData().seller, address: null }, buyer: { ...makeData().buyer, address: null }, items: makeData().items.map((i) => ({ ...i, nds_exempt: false })) }) };
    const tiff = await sharp(await pngPage()).tiff().toBuffer();
    const out = await engine().recognize({ images: [await pngPage(), tiff], documentType: 'auto', imageQuality: 'photo' });
    expect(out.documentType).toBe('torg12');
    expect(out.data.totals.amount_with_nds).toBe(359.99);
    expect(out.pages).toBe(2);
    const req = requests[0]!;
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.auth).toBe('Bearer sk-test');
    expect(req.body.model).toBe('vision-1');
    expect(req.body.response_format.type).toBe('json_schema');
    expect(req.body.response_format.json_schema.schema.required).toContain('items');
    const parts = req.body.messages[1].content;
    expect(parts.filter((p: any) => p.type === 'image_url').map((p: any) => p.image_url.url.slice(0, 22))).toEqual(['data:image/png;base64,', 'data:image/png;base64,']);
  });

  it('keeps the requested type when it is not auto', async () => {
    reply = { status: 200, body: completion({ document_type: 'torg12', ...makeData(), seller: { ...makeData().seller, address: null }, buyer: { ...makeData().buyer, address: null }, items: [] }) };
    expect((await engine().recognize({ images: [await pngPage()], documentType: 'invoice', imageQuality: 'scan' })).documentType).toBe('invoice');
  });

  it('an answer outside the schema is engine_error', async () => {
    reply = { status: 200, body: completion({ document_type: 'upd', totals: 'lots' }) };
    await expect(engine().recognize({ images: [await pngPage()], documentType: 'upd', imageQuality: 'scan' })).rejects.toMatchObject({ reason: 'engine_error' });
  });

  it('a non-2xx answer is engine_error', async () => {
    reply = { status: 429, body: { error: { message: 'rate limited' } } };
    await expect(engine().recognize({ images: [await pngPage()], documentType: 'upd', imageQuality: 'scan' })).rejects.toBeInstanceOf(RecognitionFailedError);
  });

  it('a slow API is a timeout', async () => {
    reply = { status: 200, body: completion({}), delayMs: 1500 };
    await expect(engine(300).recognize({ images: [await pngPage()], documentType: 'upd', imageQuality: 'scan' })).rejects.toMatchObject({ reason: 'timeout' });
  });

  it('an unreachable API is engine_unavailable and health unavailable', async () => {
    const dead = new AiEngine({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: '', model: 'm', timeoutMs: 2000 });
    await expect(dead.recognize({ images: [await pngPage()], documentType: 'upd', imageQuality: 'scan' })).rejects.toMatchObject({ reason: 'engine_unavailable' });
    expect(await dead.health()).toBe('unavailable');
  });

  it('health is ok when GET /models answers 2xx', async () => {
    expect(await engine().health()).toBe('ok');
    expect(requests.at(-1)!.url).toBe('/v1/models');
  });
});
