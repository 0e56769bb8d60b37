import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { normalizeBoxId, stableUuid } from '../box-ids.js';
import { netGuidHex } from '../documents.js';
import type { SimOrg } from '../model.js';
import { boxJson, organizationJson } from '../render.js';
import { ticksToIso } from '../ticks.js';
import { requireOurBox, type SimContext } from './context.js';
import { badRequest, notFound } from './diadoc-error.js';

/**
 * Counteragent IndexKey in the shape of Diadoc's published one (include/getCounteragents_resp.txt: 48 upper-case
 * hex digits ending in the box GUID in .NET byte order); the position comes first, so text order = list order.
 */
const indexKey = (i: number, o: SimOrg) => `${(i + 1).toString(16).toUpperCase().padStart(16, '0')}${netGuidHex(o.boxGuid)}`;

/** GetMyOrganizations, GetOrganization, GetBox, GetOrganizationsByInnKpp, V3/GetCounteragents. */
export function organizationsRoutes(root: FastifyInstance, ctx: SimContext): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const all = () => [ctx.state.ours, ...ctx.state.counteragents];

  app.get('/GetMyOrganizations', { schema: { querystring: Type.Object({ autoRegister: Type.Optional(Type.Boolean()) }) } }, async () => ({
    Organizations: [organizationJson(ctx.state.ours)],
  }));

  app.get(
    '/GetOrganization',
    {
      schema: {
        querystring: Type.Object({
          orgId: Type.Optional(Type.String()),
          boxId: Type.Optional(Type.String()),
          fnsParticipantId: Type.Optional(Type.String()),
          inn: Type.Optional(Type.String()),
          kpp: Type.Optional(Type.String()),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const given = [q.orgId, q.boxId, q.fnsParticipantId, q.inn].filter((v) => v !== undefined);
      if (given.length !== 1) throw badRequest('Exactly one of orgId, boxId, fnsParticipantId, inn must be given');
      const o = all().find(
        (x) =>
          (q.orgId && x.orgId === q.orgId.toLowerCase()) ||
          (q.boxId && normalizeBoxId(x.boxGuid) === normalizeBoxId(q.boxId)) ||
          (q.fnsParticipantId && x.fnsParticipantId === q.fnsParticipantId) ||
          (q.inn && x.inn === q.inn && (!q.kpp || x.kpp === q.kpp)),
      );
      if (!o) throw notFound('Organization not found', 'OrganizationNotFound');
      return organizationJson(o);
    },
  );

  app.get('/GetBox', { schema: { querystring: Type.Object({ boxId: Type.String() }) } }, async (request) => {
    const o = all().find((x) => normalizeBoxId(x.boxGuid) === normalizeBoxId(request.query.boxId));
    if (!o) throw notFound(`Box ${request.query.boxId} not found`, 'BoxNotFound');
    return { ...boxJson(o), Organization: organizationJson(o) };
  });

  app.get(
    '/GetOrganizationsByInnKpp',
    {
      schema: {
        querystring: Type.Object({ inn: Type.String(), kpp: Type.Optional(Type.String()), includeRelations: Type.Optional(Type.Boolean()) }),
      },
    },
    async (request) => {
      const { inn, kpp } = request.query;
      if (!/^(\d{10}|\d{12})$/.test(inn)) throw badRequest(`Invalid inn: '${inn}'`);
      return {
        Organizations: all()
          .filter((o) => o.inn === inn && (!kpp || o.kpp === kpp))
          .map(organizationJson),
      };
    },
  );

  app.get(
    '/V3/GetCounteragents',
    {
      schema: {
        querystring: Type.Object({
          myBoxId: Type.String(),
          counteragentStatus: Type.Optional(Type.String()),
          afterIndexKey: Type.Optional(Type.String()),
          query: Type.Optional(Type.String()),
          pageSize: Type.Optional(Type.Integer()),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      requireOurBox(ctx, q.myBoxId, 'myBoxId');
      if (q.query && q.afterIndexKey) throw badRequest('query cannot be combined with afterIndexKey');
      if (q.counteragentStatus && !['IsMyCounteragent', 'InvitesMe', 'IsInvitedByMe', 'Rejected'].includes(q.counteragentStatus))
        throw badRequest(`Invalid counteragentStatus: '${q.counteragentStatus}'`);
      const size = q.pageSize ?? 100;
      if (size < 1 || size > 100) throw badRequest('pageSize must be 1..100');
      const needle = q.query?.toLowerCase();
      const list = ctx.state.counteragents
        .map((o, i) => ({ o, key: indexKey(i, o) }))
        .filter(
          ({ o }) =>
            (!q.counteragentStatus || o.counteragentStatus === q.counteragentStatus) &&
            (!needle || o.fullName.toLowerCase().includes(needle) || o.inn.includes(needle)),
        )
        .filter(({ key }) => !q.afterIndexKey || key > q.afterIndexKey);
      return {
        TotalCount: list.length,
        TotalCountType: 'Equal',
        Counteragents: list.slice(0, size).map(({ o, key }) => ({
          IndexKey: key,
          CurrentStatus: o.counteragentStatus,
          LastEventTimestampTicks: o.counteragentSinceTicks,
          LastEventTimestamp: ticksToIso(o.counteragentSinceTicks!),
          MessageFromCounteragent: '',
          MessageToCounteragent: '',
          InvitationDocumentId: { MessageId: stableUuid(`invitation-message:${o.inn}`), EntityId: stableUuid(`invitation-entity:${o.inn}`) },
          CounteragentGroupId: stableUuid('counteragent-group'),
          Organization: { ...organizationJson(o), Departments: [] },
        })),
      };
    },
  );
}
