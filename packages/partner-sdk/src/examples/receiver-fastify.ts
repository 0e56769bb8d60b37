import Fastify, { type FastifyInstance } from 'fastify';
import { verifyWebhook, WebhookVerificationError, type VerifiedWebhook } from '@app/partner-sdk';

/** Minimal webhook receiver on Fastify: JSON bodies arrive as a Buffer so the signature covers the raw bytes. */
export function createFastifyReceiver(secret: string, handle: (e: VerifiedWebhook) => Promise<void>): FastifyInstance {
  const app = Fastify();
  const processed = new Set<string>(); // production: a table with a unique eventId column
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.post('/webhooks', async (req, reply) => {
    try {
      const event = verifyWebhook({ rawBody: req.body as Buffer, headers: req.headers, secret });
      if (!processed.has(event.eventId)) {
        await handle(event);
        processed.add(event.eventId);
      }
      return reply.status(204).send();
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      return reply.status(400).send({ error: err.reason });
    }
  });
  return app;
}
