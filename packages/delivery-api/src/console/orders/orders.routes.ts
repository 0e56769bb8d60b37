import { AdminError, actor, formErrors, render, requireRole } from '@app/admin-web';
import type { FastifyInstance } from 'fastify';
import { ACTION_TITLES, actionEffects } from './action-effects.js';
import { type ConsoleOrdersService, maskPhone, ORDER_ACTIONS, type OrderAction } from './console-orders.service.js';

const SEARCH_FIELDS = ['externalOrderId', 'phone', 'pointId', 'state', 'date'] as const;
/** How often the queue page polls its table (seconds); the page says so and has a reload link without JS. */
export const QUEUE_REFRESH_SECONDS = 10;

const isAction = (a: string): a is OrderAction => (ORDER_ACTIONS as readonly string[]).includes(a);

/**
 * Orders (`/console/orders`, role support and above): the queue with search, its live table fragment, the order
 * page, and each action's confirmation page (GET) and action (POST, CSRF, audited, then back to the order).
 */
export function ordersRoutes(app: FastifyInstance, svc: ConsoleOrdersService): void {
  const support = requireRole('support');

  app.get('/orders', support, async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const form = Object.fromEntries(SEARCH_FIELDS.map((k) => [k, typeof q[k] === 'string' ? (q[k] as string).trim() : '']));
    const base = { section: 'orders', form, queue: await svc.queue(), mask: maskPhone, refreshSeconds: QUEUE_REFRESH_SECONDS };
    try {
      return render(reply, 'orders', { ...base, results: await svc.search(form) });
    } catch (err) {
      if (!(err instanceof AdminError)) throw err;
      return render(reply, 'orders', { ...base, results: null, ...formErrors(err) }, err.status);
    }
  });

  // The queue table alone, for the page's poll (admin.js data-live); a full page without JS is the reload link.
  app.get('/orders/queue', support, async (_req, reply) => render(reply, 'orders-queue', { queue: await svc.queue(), mask: maskPhone }));

  app.get('/orders/:id', support, async (req, reply) => {
    const { id } = req.params as { id: string };
    const done = String((req.query as Record<string, unknown>).done ?? '');
    const d = await svc.detail(id);
    return render(reply, 'order', {
      section: 'orders',
      d,
      mask: maskPhone,
      titles: ACTION_TITLES,
      // the payload as sent, but the guest's phone masked like everywhere in the console
      payload: JSON.stringify(d.order.posPayload, (k, v) => (k === 'phone' && typeof v === 'string' ? maskPhone(v) : v), 2),
      notice: isAction(done) ? `Выполнено: ${ACTION_TITLES[done]}.` : null,
    });
  });

  app.get('/orders/:id/:action', support, async (req, reply) => {
    const { id, action } = req.params as { id: string; action: string };
    if (!isAction(action)) throw new AdminError('NOT_FOUND');
    const d = await svc.detail(id);
    if (!d.actions.includes(action)) throw new AdminError('VALIDATION', 'Это действие в текущем состоянии заказа недоступно.');
    return render(reply, 'order-confirm', {
      section: 'orders',
      d,
      action,
      title: ACTION_TITLES[action],
      effects: actionEffects(action, d.legs),
      note: '',
    });
  });

  app.post('/orders/:id/:action', { ...support, preHandler: app.csrfProtection }, async (req, reply) => {
    const { id, action } = req.params as { id: string; action: string };
    if (!isAction(action)) throw new AdminError('NOT_FOUND');
    const body = (req.body ?? {}) as Record<string, unknown>;
    const note = typeof body.note === 'string' ? body.note : '';
    try {
      await svc.run(id, action, actor(req), note);
    } catch (err) {
      if (!(err instanceof AdminError) || !err.field) throw err;
      const d = await svc.detail(id);
      const page = { section: 'orders', d, action, title: ACTION_TITLES[action], effects: actionEffects(action, d.legs), note };
      return render(reply, 'order-confirm', { ...page, ...formErrors(err) }, err.status);
    }
    return reply.redirect(`/console/orders/${encodeURIComponent(id)}?done=${action}`, 303);
  });
}
