import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { documentIndexKey } from '../documents.js';
import type { SimEvent } from '../model.js';
import { messageJson } from '../render.js';
import { requireOurBox, type SimContext } from './context.js';
import { badRequest } from './diadoc-error.js';

/**
 * BoxEvent.IndexKey: 24 bytes in base64 (32 characters, `+` and `/` included), the shape of the event IndexKeys in
 * Diadoc's published examples (include/getCounteragentEvents_resp.txt). The sequence is in the first 8 bytes.
 */
export const eventIndexKey = (e: SimEvent): string => {
  const b = Buffer.alloc(24);
  b.writeBigUInt64BE((BigInt(e.seq) * 0x9e3779b97f4a7c15n) % 2n ** 64n);
  Buffer.from(e.eventId.replace(/-/g, ''), 'hex').copy(b, 8);
  return b.toString('base64');
};

function eventJson(ctx: SimContext, e: SimEvent) {
  const docs = ctx.state.documents.filter((d) => d.messageId === e.messageId);
  if (e.kind === 'message') return { EventId: e.eventId, IndexKey: eventIndexKey(e), Message: messageJson(ctx.state, docs, documentIndexKey) };
  const patches = docs
    .filter((d) => !e.deletedEntityId || d.entityId === e.deletedEntityId)
    .map((d) => ({ EntityId: d.entityId, DocumentIsDeleted: true }));
  return {
    EventId: e.eventId,
    IndexKey: eventIndexKey(e),
    Patch: {
      MessageId: e.messageId,
      PatchId: e.eventId,
      TimestampTicks: e.ticks,
      MessageType: 'Letter',
      Entities: [],
      EntityPatches: patches,
      MessageIsDeleted: e.messageDeleted ?? false,
    },
  };
}

/**
 * GET /V8/GetNewEvents: the box's event feed from the oldest, `limit` (1–100, default 100) after the
 * `afterIndexKey` cursor (exclusive). `afterEventId` is the deprecated cursor and cannot be combined with it.
 */
export function eventsRoutes(root: FastifyInstance, ctx: SimContext): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/V8/GetNewEvents',
    {
      schema: {
        querystring: Type.Object({
          boxId: Type.String(),
          afterIndexKey: Type.Optional(Type.String()),
          afterEventId: Type.Optional(Type.String()),
          limit: Type.Optional(Type.Integer()),
          orderBy: Type.Optional(Type.String()),
          departmentId: Type.Optional(Type.String()),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      requireOurBox(ctx, q.boxId);
      if (q.afterIndexKey && q.afterEventId) throw badRequest('afterIndexKey and afterEventId cannot be combined');
      const limit = q.limit ?? 100;
      if (limit < 1 || limit > 100) throw badRequest(`Invalid limit: ${limit}, expected 1..100`);
      let rest = ctx.state.events;
      if (q.afterIndexKey !== undefined) {
        const i = rest.findIndex((e) => eventIndexKey(e) === q.afterIndexKey);
        if (i < 0) throw badRequest(`Invalid afterIndexKey: '${q.afterIndexKey}'`);
        rest = rest.slice(i + 1);
      } else if (q.afterEventId !== undefined) {
        const i = rest.findIndex((e) => e.eventId === q.afterEventId!.toLowerCase());
        if (i < 0) throw badRequest(`Unknown afterEventId: '${q.afterEventId}'`);
        rest = rest.slice(i + 1);
      }
      if (q.orderBy === 'Descending') rest = [...rest].reverse();
      return { Events: rest.slice(0, limit).map((e) => eventJson(ctx, e)), TotalCount: rest.length, TotalCountType: 'Equal' };
    },
  );
}
