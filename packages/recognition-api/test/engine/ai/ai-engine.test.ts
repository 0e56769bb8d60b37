// Request bodies recorded by the fake API are untyped JSON; `any` keeps the assertions on them readable.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeData, pngPage } from '../../fixtures.js';
import { RecognitionFailedError } from '../../../src/engine/engine.port.js';
import { AiEngine } from '../../../src/engine/ai/ai-engine.js';

/** A local fake of the OpenAI-compatible API: records requests, answers what the test scripts. */
let server: Server;
let baseUrl: string;
let requests: { url: string; auth: string | undefined; body: any }[] = [];
type Reply = { status: number; body: unknown; delayMs?: number; headers?: Record<string, string> };
let reply: Reply = { status: 200, body: {} };
/** Scripted answers taken in order before `reply` (retry tests). */
let script: Reply[] = [];
let slept: number[] = [];
let logs: { msg: string; extra: any }[] = [];

const completion = (content: unknown) => ({ choices: [{ message: { role: 'assistant', content: JSON.stringify(content) } }] });

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({ url: req.url!, auth: req.headers.authorization, body: text ? JSON.parse(text) : null });
      const r = req.url === '/v1/models' ? reply : (script.shift() ?? reply);
      const send = () => {
        res.writeHead(req.url === '/v1/models' ? 200 : r.status, { 'content-type': 'application/json', ...r.headers });
        res.end(JSON.stringify(req.url === '/v1/models' ? { data: [] } : r.body));
      };
      if (r.delayMs) setTimeout(send, r.delayMs);
      else send();
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
  script = [];
  slept = [];
  logs = [];
});

const engine = (timeoutMs = 5000) =>
  new AiEngine(
    { baseUrl, apiKey: 'sk-test', model: 'vision-1', timeoutMs, cost: { inputPerMTok: 2.5, outputPerMTok: 10 } },
    {
      sleep: async (ms) => {
        slept.push(ms);
      },
      log: (msg, extra) => logs.push({ msg, extra }),
    },
  );
/** A model answer of `documentType` with the sample data: addresses null, `items` as given (none by default). */
const answer = (documentType: string, items: unknown[] = []) =>
  completion({
    document_type: documentType,
    ...makeData(),
    seller: { ...makeData().seller, address: null },
    buyer: { ...makeData().buyer, address: null },
    items,
  });
const goodAnswer = () => answer('upd');

describe('AiEngine against a fake chat completions API', () => {
  it('sends images as data URLs with the JSON schema and returns the recognised data', async () => {
    reply = {
      status: 200,
      body: answer(
        'torg12',
        makeData().items.map((i) => ({ ...i, nds_exempt: false })),
      ),
    };
    const tiff = await sharp(await pngPage())
      .tiff()
      .toBuffer();
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
    expect(parts.filter((p: any) => p.type === 'image_url').map((p: any) => p.image_url.url.slice(0, 23))).toEqual([
      'data:image/jpeg;base64,',
      'data:image/jpeg;base64,',
    ]);
  });

  it('downscales a large page to 2000 px and re-encodes it as JPEG before sending', async () => {
    reply = { status: 200, body: goodAnswer() };
    const big = await sharp({ create: { width: 4960, height: 7016, channels: 3, background: '#fff' } })
      .composite([{ input: await pngPage(600, 400), top: 100, left: 100 }])
      .png()
      .toBuffer();
    // The answer deadline covers the downscale of a 35-megapixel page, seconds on a loaded machine; it is not under test here.
    await engine(60_000).recognize({ images: [big], documentType: 'upd', imageQuality: 'scan' });
    const url: string = requests[0]!.body.messages[1].content[1].image_url.url;
    const sent = await sharp(Buffer.from(url.split(',')[1]!, 'base64')).metadata();
    expect([sent.format, sent.width, sent.height]).toEqual(['jpeg', 1414, 2000]);
  });

  it('retries 429 after the Retry-After the API asks for, then succeeds', async () => {
    script = [{ status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '7' } }];
    reply = { status: 200, body: goodAnswer() };
    await engine().recognize({ images: [await pngPage()], documentType: 'upd', imageQuality: 'scan' });
    expect(slept).toEqual([7000]);
    expect(requests.filter((r) => r.url === '/v1/chat/completions')).toHaveLength(2);
  });

  it('retries 5xx with exponential back-off and gives up after 3 attempts', async () => {
    reply = { status: 503, body: { error: 'overloaded' } };
    await expect(engine().recognize({ images: [await pngPage()], documentType: 'upd', imageQuality: 'scan' })).rejects.toMatchObject({
      reason: 'engine_error',
    });
    expect(slept).toHaveLength(2);
    expect(slept[0]).toBeGreaterThanOrEqual(800);
    expect(slept[0]).toBeLessThanOrEqual(1200);
    expect(slept[1]).toBeGreaterThanOrEqual(1600);
    expect(slept[1]).toBeLessThanOrEqual(2400);
  });

  it('logs a token and cost estimate per document', async () => {
    reply = { status: 200, body: { ...goodAnswer(), usage: { prompt_tokens: 1200, completion_tokens: 300 } } };
    await engine().recognize({ images: [await pngPage()], documentType: 'upd', imageQuality: 'scan' });
    const usage = logs.find((l) => l.msg === 'ai usage')!.extra;
    expect(usage).toMatchObject({
      model: 'vision-1',
      pages: 1,
      estimatedImageTokens: 255,
      inputTokens: 1200,
      outputTokens: 300,
      reported: true,
      estimatedCost: 0.006,
    });
  });

  it('keeps the requested type when it is not auto', async () => {
    reply = {
      status: 200,
      body: answer('torg12'),
    };
    expect((await engine().recognize({ images: [await pngPage()], documentType: 'invoice', imageQuality: 'scan' })).documentType).toBe('invoice');
  });

  it('an answer outside the schema is engine_error', async () => {
    reply = { status: 200, body: completion({ document_type: 'upd', totals: 'lots' }) };
    await expect(engine().recognize({ images: [await pngPage()], documentType: 'upd', imageQuality: 'scan' })).rejects.toMatchObject({
      reason: 'engine_error',
    });
  });

  it('a non-retryable non-2xx answer is engine_error at once', async () => {
    reply = { status: 400, body: { error: { message: 'bad request' } } };
    await expect(engine().recognize({ images: [await pngPage()], documentType: 'upd', imageQuality: 'scan' })).rejects.toBeInstanceOf(
      RecognitionFailedError,
    );
    expect(slept).toEqual([]);
  });

  it('a slow API is a timeout', async () => {
    reply = { status: 200, body: completion({}), delayMs: 1500 };
    await expect(engine(300).recognize({ images: [await pngPage()], documentType: 'upd', imageQuality: 'scan' })).rejects.toMatchObject({
      reason: 'timeout',
    });
  });

  it('an unreachable API is engine_unavailable and health unavailable', async () => {
    const dead = new AiEngine({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: '', model: 'm', timeoutMs: 2000 }, { sleep: async () => {} });
    await expect(dead.recognize({ images: [await pngPage()], documentType: 'upd', imageQuality: 'scan' })).rejects.toMatchObject({
      reason: 'engine_unavailable',
    });
    expect(await dead.health()).toBe('unavailable');
  });

  it('health is ok when GET /models answers 2xx', async () => {
    expect(await engine().health()).toBe('ok');
    expect(requests.at(-1)!.url).toBe('/v1/models');
  });
});
