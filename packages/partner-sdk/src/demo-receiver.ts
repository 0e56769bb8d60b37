import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookVerificationError } from './webhook-errors.js';
import { verifyWebhook, type VerifiedWebhook } from './webhook-verifier.js';

/** Largest webhook body the demo accepts (bytes); the service's bodies are a few hundred bytes. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Options of {@link startDemoReceiver}. `port` 0 picks a free port. */
export interface DemoReceiverOptions {
  port: number;
  /** The webhook secret configured for this receiver. */
  secret: string;
  log: (line: string) => void;
  /** Receiver clock (default now) and tolerance (default 60 s). */
  now?: () => Date;
  toleranceSeconds?: number;
}

/** A running demo receiver: its URL, the verified unique events so far, and close(). */
export interface DemoReceiver {
  url: string;
  port: number;
  events: VerifiedWebhook[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * A webhook receiver for the demo (`npm start`): node:http on 127.0.0.1, verifies each POST with the reference
 * verifier on the raw body, answers 204 to verified events (also to repeats, which are de-duplicated by eventId
 * and logged as such), 400/401 with the reason to refused ones, and prints every verified event.
 */
export async function startDemoReceiver(o: DemoReceiverOptions): Promise<DemoReceiver> {
  const seen = new Set<string>();
  const events: VerifiedWebhook[] = [];
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const raw = await readBody(req).catch(() => null);
    if (raw === null) return void res.writeHead(413).end();
    try {
      const e = verifyWebhook({ rawBody: raw, headers: req.headers, secret: o.secret, now: o.now?.(), toleranceSeconds: o.toleranceSeconds });
      if (seen.has(e.eventId)) {
        o.log(`webhook ${e.eventId} repeated (already processed), acknowledged`);
      } else {
        seen.add(e.eventId);
        events.push(e);
        o.log(
          'point' in e
            ? `webhook ${e.type} point ${e.point.pointId} ${e.point.revision ?? e.point.status ?? ''} event ${e.eventId}`
            : `webhook ${e.type} order ${e.order.id} (${e.order.externalOrderId}) state=${e.order.state} deliveryStatus=${e.order.deliveryStatus ?? '-'} cancelState=${e.order.cancelState} event ${e.eventId}`,
        );
      }
      res.writeHead(204).end();
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) return void res.writeHead(500).end();
      o.log(`webhook refused: ${err.reason}: ${err.message}`);
      const status = err.reason === 'invalid_signature' ? 401 : 400;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: err.reason }));
    }
  });
  await new Promise<void>((resolve) => server.listen(o.port, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    port,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
