/**
 * The baseline of the HTTP benchmarks: a bare Fastify server in its own process answering fixed routes with
 * fixed bytes (no authentication, no database), so "ratio to bare" compares the real server against the cost of
 * HTTP + Fastify + JSON body parsing alone on the same machine in the same run. Also the webhook receiver of
 * bench/webhooks.ts. Started by {@link startBare}; the child file is this module run as a script.
 */
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { forkTs, stop } from './procs.js';

export interface BareRoute {
  method: 'GET' | 'POST';
  path: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Bare {
  url: string;
  close(): Promise<void>;
}

/** Starts the bare server process with `routes`; resolves with its URL once it listens. */
export async function startBare(routes: BareRoute[]): Promise<Bare> {
  const child = forkTs(fileURLToPath(import.meta.url));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bare server did not start in 30 s')), 30_000);
    child.once('message', (m: { url: string }) => (clearTimeout(timer), resolve(m.url)));
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`bare server exited (${code})`))));
    child.send(routes);
  });
  return { url, close: () => stop(child) };
}

async function serve(routes: BareRoute[]): Promise<void> {
  const app = Fastify({ logger: false });
  for (const r of routes) {
    app.route({
      method: r.method,
      url: r.path,
      handler: async (_req, reply) =>
        reply
          .code(r.status)
          .headers(r.headers)
          .send(r.body || undefined),
    });
  }
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!({ url });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.once('disconnect', () => process.exit(0));
  process.once('message', (routes: BareRoute[]) => void serve(routes));
}
