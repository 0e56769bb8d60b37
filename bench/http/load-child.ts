/**
 * The load generator process of the HTTP benchmarks: receives one {@link LoadSpec} over IPC, runs autocannon
 * programmatically (the CLI cannot sign each request with a fresh X-Request-ID and HMAC) and sends back a
 * {@link LoadResult}. Started by bench/http/load.ts; not run by hand. Exits when its parent goes away.
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { buildSignedHeaders } from '@app/shared';
import type { LoadResult, LoadSpec } from './load.js';

process.once('disconnect', () => process.exit(0));

function run(spec: LoadSpec): Promise<autocannon.Result> {
  let n = 0;
  const nextBody = (): string => {
    if (spec.bodies) return spec.bodies[n++ % spec.bodies.length];
    if (spec.template) return spec.template.text.replace(spec.template.placeholder, `${spec.template.prefix}-${n++}`);
    return spec.body ?? '';
  };
  const amount = spec.amount;
  return autocannon({
    url: spec.url,
    connections: spec.connections,
    ...(amount ? { amount } : { duration: spec.duration ?? 10 }),
    requests: [
      {
        method: spec.method,
        path: spec.path,
        setupRequest: (req) => {
          const body = spec.method === 'POST' ? nextBody() : '';
          const signed = spec.key
            ? buildSignedHeaders({
                apiKey: spec.key.apiKey,
                secret: spec.key.apiSecret,
                method: spec.method,
                path: spec.path,
                body,
                requestId: randomUUID(),
                now: new Date(),
              })
            : {};
          return {
            ...req,
            method: spec.method,
            path: spec.path,
            ...(spec.method === 'POST' ? { body } : {}),
            headers: { ...(spec.method === 'POST' ? { 'content-type': 'application/json' } : {}), ...spec.headers, ...signed },
          };
        },
      },
    ],
  });
}

process.once('message', async (spec: LoadSpec) => {
  try {
    const cpuStart = process.cpuUsage();
    const r = await run(spec);
    const cpu = process.cpuUsage(cpuStart);
    const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([c, s]) => [c, (s as { count: number }).count]));
    const result: LoadResult = {
      requests: r.requests.total,
      seconds: r.duration,
      rps: r.requests.total / r.duration,
      p50: r.latency.p50,
      p99: r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors,
      timeouts: r.timeouts,
      statuses,
      clientCores: (cpu.user + cpu.system) / 1e6 / r.duration,
    };
    process.send!({ ok: true, result });
  } catch (err) {
    process.send!({ ok: false, error: (err as Error).stack ?? String(err) });
  }
});
