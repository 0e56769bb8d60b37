import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { stringify } from 'lossless-json';
import type { Fault, Faults } from '../faults.js';
import type { SimContext } from './context.js';
import { DiadocError, sendDiadocError, sendRateLimited } from './diadoc-error.js';
import { documentsRoutes } from './documents.routes.js';
import { employeesRoutes } from './employees.routes.js';
import { eventsRoutes } from './events.routes.js';
import { organizationsRoutes } from './organizations.routes.js';

/** Simulator control (no auth; the simulator listens on loopback): faults and refresh-token revocation. */
function controlRoutes(app: FastifyInstance, ctx: SimContext, faults: Faults): void {
  app.get('/__sim/faults', async () => ({ faults: faults.active }));
  app.post('/__sim/faults', async (request) => {
    faults.add(request.body as Fault);
    return { faults: faults.active };
  });
  app.delete('/__sim/faults', async () => {
    faults.clear();
    return { faults: [] };
  });
  app.post('/__sim/revoke-refresh-tokens', async () => {
    ctx.idp.revokeAll();
    return { revoked: true };
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

/** A fault's answer, or undefined to go on (slow: after the delay). */
async function applyFault(f: Fault, reply: import('fastify').FastifyReply): Promise<unknown> {
  switch (f.kind) {
    case 'slow':
      return void (await sleep(f.delayMs ?? 5000));
    case 'expired-token':
      return sendDiadocError(reply, new DiadocError(401, 'Http.Unauthorized', 'Access token is expired or invalid'));
    case 'subscription-required':
      return sendDiadocError(reply, new DiadocError(402, 'PaymentRequired', 'The box has no active Diadoc API subscription'));
    case 'forbidden':
      return sendDiadocError(reply, new DiadocError(403, 'Http.Forbidden', 'Access denied'));
    case 'rate-limit':
      return sendRateLimited(reply, f.retryAfter ?? 30);
    case 'server-error':
      return sendDiadocError(reply, new DiadocError(f.status ?? 500, 'InternalServerError', 'Internal server error. Try again later'));
    case 'post-in-progress':
      return reply
        .status(204)
        .header('Retry-After', String(f.retryAfter ?? 5))
        .send();
  }
}

/**
 * The Diadoc HTTP API subset (Diadoc's paths, query names, JSON shapes, paging and errors). Every API call needs
 * `Authorization: Bearer <token of our identity provider>`; JSON is written losslessly (ticks are 64-bit).
 */
export function buildDiadocApp(ctx: SimContext, faults: Faults): FastifyInstance {
  const app = Fastify({ logger: false, forceCloseConnections: true, ajv: { customOptions: { coerceTypes: true, removeAdditional: false } } });
  app.setReplySerializer((payload) => stringify(payload) ?? '');
  app.setErrorHandler((error: FastifyError | DiadocError, _request, reply) => {
    if (error instanceof DiadocError) return sendDiadocError(reply, error);
    const fe = error as FastifyError;
    if (fe.validation || (fe.statusCode && fe.statusCode < 500))
      return sendDiadocError(reply, new DiadocError(400, 'InvalidParameter', `Bad request: ${fe.message}`));
    return sendDiadocError(reply, new DiadocError(500, 'InternalServerError', 'Internal server error'));
  });
  app.setNotFoundHandler((_request, reply) => sendDiadocError(reply, new DiadocError(404, 'Http.NotFound', 'Method not found')));
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (path.startsWith('/__sim/')) return;
    ctx.requests.push(`${request.method} ${path}`);
    ctx.requestUrls.push(`${request.method} ${request.url}`);
    const fault = faults.take(path);
    if (fault && fault.kind !== 'post-in-progress') {
      const answered = await applyFault(fault, reply);
      if (answered) return answered;
    }
    if (fault?.kind === 'post-in-progress' && path === '/V3/PostMessage') return applyFault(fault, reply);
    const m = /^Bearer\s+(\S+)$/.exec(request.headers.authorization ?? '');
    const user = m ? await ctx.idp.verify(m[1]!) : null;
    if (!user)
      return sendDiadocError(
        reply,
        new DiadocError(401, 'Http.Unauthorized', 'Authorization header is missing, or the access token is invalid or expired'),
      );
    request.headers['x-sim-user'] = user;
  });
  controlRoutes(app, ctx, faults);
  documentsRoutes(app, ctx);
  eventsRoutes(app, ctx);
  employeesRoutes(app, ctx);
  organizationsRoutes(app, ctx);
  return app;
}
