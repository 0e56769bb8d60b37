import { Type } from 'typebox';

/**
 * TypeBox schemas of the gateway (Spec: E-document operator gateway). Requests are strict; response bodies are
 * the operator's objects, so their schemas name the fields clients rely on and allow the rest.
 */
const GUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
/** A Diadoc box id: the GUID form or `<32 hex>@diadoc.ru`. */
export const BOX_ID = '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9a-fA-F]{32}@diadoc\\.ru)$';
const DATE = '^\\d{2}\\.\\d{2}\\.\\d{4}$';
const Guid = (description: string) => Type.String({ pattern: GUID, description });
/**
 * Longest paging cursor we accept. Diadoc's IndexKeys are opaque: the one in its own GetDocuments example is 214
 * hex characters, counteragent-event keys are 32 base64 characters; 2048 leaves room for longer keys and still
 * fits any URL limit (docs/edo-gateway.md, "Cursors").
 */
export const CURSOR_MAX = 2048;
/** An opaque operator cursor: printable ASCII without spaces, 1–CURSOR_MAX characters. */
const Cursor = (description: string) => Type.String({ pattern: `^[\\x21-\\x7e]{1,${CURSOR_MAX}}$`, description });
const loose = { additionalProperties: true };

export const ErrorBody = Type.Object({ error: Type.Object({ code: Type.String(), message: Type.String() }) });

export const MessageParams = Type.Object({ messageId: Guid('Diadoc MessageId') });
export const EntityParams = Type.Object({ messageId: Guid('Diadoc MessageId'), entityId: Guid('EntityId of the document (LetterAttachment)') });
export const UserParams = Type.Object({ userId: Guid('Diadoc UserId of the employee') });

export const DocumentsQuery = Type.Object(
  {
    filterCategory: Type.String({
      pattern: '^[A-Za-z0-9]+\\.(Inbound|Outbound|Internal|Proxy)[A-Za-z]*$',
      maxLength: 120,
      description: '`<TypeNamedId|Any>.<Inbound|Outbound|Internal|Proxy><Status?>`, e.g. Any.InboundNotFinished',
    }),
    counteragentBoxId: Type.Optional(Type.String({ pattern: BOX_ID })),
    fromDocumentDate: Type.Optional(Type.String({ pattern: DATE, description: 'dd.MM.yyyy' })),
    toDocumentDate: Type.Optional(Type.String({ pattern: DATE, description: 'dd.MM.yyyy' })),
    timestampFrom: Type.Optional(
      Type.String({ maxLength: 40, description: 'ISO 8601 instant (ours; sent as timestampFromTicks); not with document dates' }),
    ),
    timestampTo: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 instant (ours; sent as timestampToTicks)' })),
    documentNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    afterIndexKey: Type.Optional(Cursor('paging cursor: IndexKey of the last document of the previous page (opaque)')),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'page size, operator default 100' })),
    sortDirection: Type.Optional(Type.Union([Type.Literal('Ascending'), Type.Literal('Descending')])),
  },
  { additionalProperties: false },
);

const Base64 = Type.String({ minLength: 1, maxLength: 70_000_000, description: 'base64' });
export const SendBody = Type.Object(
  {
    ToBoxId: Type.String({ pattern: BOX_ID }),
    DocumentAttachments: Type.Array(
      Type.Object(
        {
          TypeNamedId: Type.Object(
            { Name: Type.String({ pattern: '^[A-Za-z0-9]{1,100}$' }), Version: Type.String({ minLength: 1, maxLength: 100 }) },
            { additionalProperties: false },
          ),
          SignedContent: Type.Object(
            { Content: Base64, Signature: Type.Optional(Base64), SignWithTestSignature: Type.Optional(Type.Boolean()) },
            { additionalProperties: false },
          ),
          Function: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          Metadata: Type.Optional(
            Type.Array(
              Type.Object(
                { Key: Type.String({ minLength: 1, maxLength: 100 }), Value: Type.String({ maxLength: 1000 }) },
                { additionalProperties: false },
              ),
              { maxItems: 50 },
            ),
          ),
          FileName: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 255,
              description: 'ours: file name of a Nonformalized document (default document.<ext> by content)',
            }),
          ),
          Comment: Type.Optional(Type.String({ maxLength: 1000 })),
          CustomDocumentId: Type.Optional(Type.String({ maxLength: 200 })),
          NeedRecipientSignature: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 40 },
    ),
    Mode: Type.Optional(
      Type.Union([Type.Literal('signed'), Type.Literal('delaySend'), Type.Literal('draft')], {
        description: 'ours: signed (send now), delaySend (store to sign and send later), draft; default by the signatures, see docs/edo-gateway.md',
      }),
    ),
    IsDraft: Type.Optional(Type.Boolean({ description: 'older form of Mode "draft"' })),
  },
  { additionalProperties: false },
);
/** Pattern of an operation id (query `operationId` or header `Idempotency-Key`). */
export const OPERATION_ID = '^[0-9A-Za-z._:-]{1,100}$';
export const SendQuery = Type.Object(
  {
    operationId: Type.Optional(
      Type.String({
        pattern: OPERATION_ID,
        description: 'idempotency key (or header Idempotency-Key); default a new UUID, returned in X-Operation-Id',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SearchBody = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 1000 }),
    firstIndex: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    scope: Type.Optional(
      Type.Union(
        ['SearchScopeAny', 'SearchScopeIncoming', 'SearchScopeOutgoing', 'SearchScopeDeleted', 'SearchScopeInternal'].map((s) => Type.Literal(s)),
      ),
    ),
  },
  { additionalProperties: false },
);

export const DeleteQuery = Type.Object(
  { documentId: Type.Optional(Guid('EntityId of one document; without it the whole message is deleted')) },
  { additionalProperties: false },
);
export const EventsQuery = Type.Object(
  {
    afterEventId: Type.Optional(
      Cursor('paging cursor: the EventId (a GUID, sent to Diadoc as afterEventId) or the IndexKey (sent as afterIndexKey) of the last event seen'),
    ),
    afterIndexKey: Type.Optional(Cursor('paging cursor: the IndexKey of the last event seen; not with afterEventId')),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);
export const EmployeesQuery = Type.Object(
  { page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })), count: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })) },
  { additionalProperties: false },
);

const AccessLevel = Type.Union(['DepartmentOnly', 'DepartmentAndSubdepartments', 'AllDocuments', 'SelectedDepartments'].map((l) => Type.Literal(l)));
const Actions = Type.Array(
  Type.Object({ Name: Type.String({ minLength: 1, maxLength: 100 }), IsAllowed: Type.Boolean() }, { additionalProperties: false }),
  { maxItems: 50 },
);
const Name = Type.String({ minLength: 1, maxLength: 100 });
export const EmployeeCreateBody = Type.Object(
  {
    Credentials: Type.Object(
      {
        Login: Type.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$' }),
        FullName: Type.Object(
          { LastName: Name, FirstName: Name, MiddleName: Type.Optional(Type.String({ maxLength: 100 })) },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    Position: Type.Optional(Type.String({ maxLength: 200 })),
    CanBeInvitedForChat: Type.Optional(Type.Boolean()),
    Permissions: Type.Object(
      {
        IsAdministrator: Type.Boolean(),
        DocumentAccessLevel: AccessLevel,
        UserDepartmentId: Type.Optional(Guid('department')),
        SelectedDepartmentIds: Type.Optional(Type.Array(Guid('department'), { maxItems: 100 })),
        Actions: Type.Optional(Actions),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export const EmployeeUpdateBody = Type.Object(
  {
    Position: Type.Optional(Type.String({ maxLength: 200 })),
    CanBeInvitedForChat: Type.Optional(Type.Boolean()),
    Permissions: Type.Optional(
      Type.Object(
        {
          UserDepartmentId: Type.Optional(Guid('department')),
          IsAdministrator: Type.Optional(Type.Boolean()),
          DocumentAccessLevel: Type.Optional(AccessLevel),
          SelectedDepartmentIds: Type.Optional(Type.Array(Guid('department'), { maxItems: 100 })),
          Actions: Type.Optional(Actions),
          AuthorizationPermission: Type.Optional(
            Type.Object({ IsBlocked: Type.Boolean(), Comment: Type.Optional(Type.String({ maxLength: 500 })) }, { additionalProperties: false }),
          ),
        },
        { additionalProperties: false, minProperties: 1 },
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const OrgSearchQuery = Type.Object(
  { inn: Type.String({ pattern: '^(\\d{10}|\\d{12})$' }), kpp: Type.Optional(Type.String({ pattern: '^\\d{4}[0-9A-Z]{2}\\d{3}$' })) },
  { additionalProperties: false },
);
export const CounteragentsQuery = Type.Object(
  {
    counteragentStatus: Type.Optional(Type.Union(['IsMyCounteragent', 'InvitesMe', 'IsInvitedByMe', 'Rejected'].map((s) => Type.Literal(s)))),
    afterIndexKey: Type.Optional(Cursor('paging cursor: IndexKey of the last counteragent of the previous page (opaque)')),
    query: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);

/** GET /api/v1/edo/health (Spec: exactly these four fields when connected; `message` is added on 503). */
export const EdoHealthBody = Type.Object({
  status: Type.String({
    description:
      'connected | not_configured | misconfigured | unauthorized | forbidden | subscription_required | rate_limited | unreachable | box_not_found | error',
  }),
  authenticated: Type.Boolean(),
  organizations_count: Type.Integer(),
  box_id: Type.Union([Type.String(), Type.Null()]),
  message: Type.Optional(Type.String()),
});

const Ticks = Type.Integer({ description: '.NET ticks (100 ns since 0001-01-01 UTC); may exceed 2^53, sent exactly' });
export const DiadocDocument = Type.Object(
  {
    IndexKey: Type.String(),
    MessageId: Type.String(),
    EntityId: Type.String(),
    TypeNamedId: Type.String(),
    FileName: Type.String(),
    DocumentDate: Type.String(),
    DocumentNumber: Type.String(),
    DocumentDirection: Type.String(),
    SendTimestampTicks: Ticks,
    SendTimestamp: Type.String({ description: 'ours: ISO twin of SendTimestampTicks' }),
  },
  loose,
);
export const DocumentList = Type.Object({ TotalCount: Type.Integer(), HasMoreResults: Type.Boolean(), Documents: Type.Array(DiadocDocument) }, loose);
export const DiadocMessage = Type.Object(
  {
    MessageId: Type.String(),
    FromBoxId: Type.String(),
    ToBoxId: Type.String(),
    IsDraft: Type.Boolean(),
    TimestampTicks: Ticks,
    Entities: Type.Array(Type.Object({ EntityType: Type.String(), EntityId: Type.String() }, loose)),
  },
  loose,
);
export const SearchResult = Type.Object(
  {
    Documents: Type.Array(Type.Object({ DocumentId: Type.Object({ MessageId: Type.String(), EntityId: Type.String() }) }, loose)),
    HaveMoreDocuments: Type.Boolean(),
  },
  loose,
);
export const EventList = Type.Object(
  {
    Events: Type.Array(Type.Object({ EventId: Type.String(), IndexKey: Type.String() }, loose)),
    TotalCount: Type.Integer(),
    TotalCountType: Type.String(),
  },
  loose,
);
export const DiadocEmployee = Type.Object(
  {
    User: Type.Object({ UserId: Type.String(), Login: Type.String() }, loose),
    Position: Type.String(),
    Permissions: Type.Object({ IsAdministrator: Type.Boolean(), DocumentAccessLevel: Type.String() }, loose),
  },
  loose,
);
export const EmployeeList = Type.Object({ Employees: Type.Array(DiadocEmployee), TotalCount: Type.Integer() }, loose);
export const DiadocOrganization = Type.Object(
  {
    OrgId: Type.String(),
    Inn: Type.String(),
    Kpp: Type.String(),
    FullName: Type.String(),
    Boxes: Type.Array(Type.Object({ BoxId: Type.String() }, loose)),
  },
  loose,
);
export const OrganizationList = Type.Object({ Organizations: Type.Array(DiadocOrganization) }, loose);
export const CounteragentList = Type.Object(
  {
    TotalCount: Type.Integer(),
    Counteragents: Type.Array(Type.Object({ IndexKey: Type.String(), CurrentStatus: Type.String(), Organization: DiadocOrganization }, loose)),
  },
  loose,
);
export const Deleted = Type.Object({ deleted: Type.Literal(true) });
