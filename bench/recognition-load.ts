/**
 * Recognition under load: `npm run bench -- recognition-load [--docs-per-client 3] [--skip-speed]`.
 * Runs the real service in this process (real worker pools and Tesseract, PGlite in a temp folder, or
 * DATABASE_URL) and measures what the API's event loop feels:
 *  A. Event loop: `perf_hooks.monitorEventLoopDelay` p50/p99/max and `GET /api/v1/documents` latency, first idle,
 *     then while 5 large uploads (7016×4960 JPEG of a generated UPD, ~5–7 MB, `image_quality=scan`) are checked
 *     and recognised.
 *  B. Speed per tier: 5 concurrent clients, each sending `--docs-per-client` documents (tiers scan/photo/
 *     screenshot in turn, priorities alternating high/normal): seconds per page p50/p95 per tier (engine time,
 *     `processing_time_ms` / pages) and the high lane's answer times (request to response, incl. 503s).
 * Prints markdown tables and the load average at start and end (the machine may be shared). Not a test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { closeRenderer, generateDocument, type DocType, type Tier } from '@app/docgen';
import { startRecognitionService } from '@app/recognition-api';
import { percentile } from './recognition/score.js';

const { values } = parseArgs({ options: { 'docs-per-client': { type: 'string', default: '3' }, 'skip-speed': { type: 'boolean', default: false } } });
const perClient = Number(values['docs-per-client']);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const loadStart = load();
const ms = (n: number) => n.toFixed(0);
const dir = mkdtempSync(join(tmpdir(), 'recog-bench-'));
const form = (images: Buffer[], fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  images.forEach((img, i) => f.append('images[]', new Blob([new Uint8Array(img)]), `p${i + 1}.jpg`));
  return f;
};

process.stderr.write('generating documents…\n');
const upd = await generateDocument({ seed: 31000, type: 'upd', tier: 'scan', lines: 6 });
const large = await sharp(upd.images[0]).resize({ width: 7016 }).jpeg({ quality: 97 }).toBuffer();
const types: DocType[] = ['upd', 'torg12', 'invoice'];
const tiers: Tier[] = ['scan', 'photo', 'screenshot'];
const set: { tier: Tier; images: Buffer[] }[] = [];
for (let i = 0; i < 9; i++)
  set.push({ tier: tiers[i % 3]!, images: (await generateDocument({ seed: 32000 + i, type: types[i % 3]!, tier: tiers[i % 3]!, lines: 4 })).images });
await closeRenderer();

const svc = await startRecognitionService({
  dataDir: dir,
  port: 0,
  host: '127.0.0.1',
  databaseUrl: process.env.DATABASE_URL,
  workers: 2,
  highSlots: 2,
  demoApiKey: true,
  pollMs: 200,
});
const key = svc.apiKey!;
const get = (path: string) => fetch(`${svc.url}${path}`, { headers: { 'x-api-key': key } });
const listLatency = async () => {
  const t = performance.now();
  await (await get('/api/v1/documents?limit=20')).arrayBuffer();
  return performance.now() - t;
};
const waitDone = async (id: string) => {
  for (;;) {
    const d = (await (await get(`/api/v1/documents/${id}`)).json()) as { status: string; processing_time_ms?: number };
    if (d.status === 'completed' || d.status === 'failed') return d;
    await new Promise((r) => setTimeout(r, 250));
  }
};

try {
  // A. Event loop and list latency, idle then under 5 large uploads.
  const idle: number[] = [];
  const eldIdle = monitorEventLoopDelay({ resolution: 10 });
  eldIdle.enable();
  for (let i = 0; i < 40; i++) {
    idle.push(await listLatency());
    await new Promise((r) => setTimeout(r, 50));
  }
  eldIdle.disable();
  const eld = monitorEventLoopDelay({ resolution: 10 });
  eld.enable();
  const t0 = performance.now();
  const uploads = Array.from({ length: 5 }, async () => {
    const res = await fetch(`${svc.url}/api/v1/recognize`, {
      method: 'POST',
      headers: { 'x-api-key': key },
      body: form([large], { document_type: 'auto', image_quality: 'scan' }),
    });
    const { id } = (await res.json()) as { id: string };
    return waitDone(id);
  });
  const busy: number[] = [];
  let done = false;
  const all = Promise.all(uploads).then((r) => {
    done = true;
    return r;
  });
  while (!done) {
    busy.push(await listLatency());
    await new Promise((r) => setTimeout(r, 50));
  }
  const results = await all;
  eld.disable();
  const q = (h: ReturnType<typeof monitorEventLoopDelay>, p: number) => h.percentile(p) / 1e6;
  console.log(
    `\nA. Event loop while 5 large uploads (${(large.length / 1e6).toFixed(1)} MB JPEG, 7016×4960, image_quality=scan) are recognised ` +
      `(${((performance.now() - t0) / 1000).toFixed(0)} s until all ${results.filter((r) => r.status === 'completed').length}/5 completed)\n`,
  );
  console.log('| phase | event-loop delay p50 / p99 / max ms | GET /api/v1/documents p50 / p95 / p99 ms | requests |');
  console.log('|---|---|---|---|');
  console.log(
    `| idle | ${ms(q(eldIdle, 50))} / ${ms(q(eldIdle, 99))} / ${ms(eldIdle.max / 1e6)} | ${ms(percentile(idle, 50))} / ${ms(percentile(idle, 95))} / ${ms(percentile(idle, 99))} | ${idle.length} |`,
  );
  console.log(
    `| 5 large uploads | ${ms(q(eld, 50))} / ${ms(q(eld, 99))} / ${ms(eld.max / 1e6)} | ${ms(percentile(busy, 50))} / ${ms(percentile(busy, 95))} / ${ms(percentile(busy, 99))} | ${busy.length} |`,
  );

  if (!values['skip-speed']) {
    // B. 5 clients, mixed priorities, tiers in turn.
    const perPage: Record<Tier, number[]> = { scan: [], photo: [], 'photo-table': [], 'photo-phone': [], screenshot: [] };
    const high: { ms: number; status: number }[] = [];
    const t1 = performance.now();
    await Promise.all(
      Array.from({ length: 5 }, async (_c, c) => {
        for (let i = 0; i < perClient; i++) {
          const doc = set[(c * perClient + i) % set.length]!;
          const priority = (c + i) % 2 === 0 ? 'high' : 'normal';
          const ts = performance.now();
          const res = await fetch(`${svc.url}/api/v1/recognize`, {
            method: 'POST',
            headers: { 'x-api-key': key },
            body: form(doc.images, { document_type: 'auto', image_quality: doc.tier, priority }),
          });
          const body = (await res.json()) as { id?: string; processing_time_ms?: number; status?: string };
          if (priority === 'high') {
            high.push({ ms: performance.now() - ts, status: res.status });
            if (res.status === 200) perPage[doc.tier].push(body.processing_time_ms! / 1000 / doc.images.length);
          } else {
            const d = await waitDone(body.id!);
            if (d.status === 'completed') perPage[doc.tier].push(d.processing_time_ms! / 1000 / doc.images.length);
          }
        }
      }),
    );
    console.log(
      `\nB. Speed per tier, 5 concurrent clients × ${perClient} documents, priorities high/normal alternating, 2 workers + 2 high slots ` +
        `(${((performance.now() - t1) / 1000).toFixed(0)} s)\n`,
    );
    console.log('| tier | pages recognised | s/page p50 | s/page p95 |');
    console.log('|---|---|---|---|');
    for (const t of tiers)
      console.log(`| ${t} | ${perPage[t].length} | ${percentile(perPage[t], 50).toFixed(1)} | ${percentile(perPage[t], 95).toFixed(1)} |`);
    const ok = high.filter((h) => h.status === 200).map((h) => h.ms / 1000);
    const counts: Record<number, number> = {};
    for (const h of high) counts[h.status] = (counts[h.status] ?? 0) + 1;
    console.log(
      `\nHigh lane: ${high.length} requests, statuses ${JSON.stringify(counts)}; answer time of the 200s p50 ${percentile(ok, 50).toFixed(1)} s, ` +
        `p95 ${percentile(ok, 95).toFixed(1)} s, max ${Math.max(...high.map((h) => h.ms / 1000)).toFixed(1)} s (all answers incl. 422/503).`,
    );
  }
  console.log(`\nload average (1/5/15 min) at start ${loadStart}, at end ${load()}; cores: 2`);
} finally {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
}
