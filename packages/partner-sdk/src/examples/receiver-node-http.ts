import { createServer, type Server } from 'node:http';
import { verifyWebhook, WebhookVerificationError, type VerifiedWebhook } from '@app/partner-sdk';

/** Minimal webhook receiver on node:http: raw body first, verify, de-duplicate by eventId, then handle. */
export function createReceiver(secret: string, handle: (e: VerifiedWebhook) => Promise<void>): Server {
  const processed = new Set<string>(); // production: a table with a unique eventId column
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        const event = verifyWebhook({ rawBody: Buffer.concat(chunks), headers: req.headers, secret });
        if (!processed.has(event.eventId)) {
          await handle(event);
          processed.add(event.eventId);
        }
        res.writeHead(204).end(); // a repeat is acknowledged too, or it will be retried
      } catch (err) {
        if (!(err instanceof WebhookVerificationError)) return void res.writeHead(500).end();
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: err.reason }));
      }
    });
  });
}
