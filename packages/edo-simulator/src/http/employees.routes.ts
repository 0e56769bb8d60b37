import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { HEAD_DEPARTMENT } from '../box-ids.js';
import type { AccessLevel, SimEmployee } from '../model.js';
import { employeeJson } from '../render.js';
import { ticksOf } from '../ticks.js';
import { GUID, requireOurBox, type SimContext } from './context.js';
import { badRequest, DiadocError, notFound } from './diadoc-error.js';

const strict = { additionalProperties: false };
const Level = Type.Union(['DepartmentOnly', 'DepartmentAndSubdepartments', 'AllDocuments', 'SelectedDepartments'].map((l) => Type.Literal(l)));
const Action = Type.Object({ Name: Type.String(), IsAllowed: Type.Boolean() }, strict);
const Auth = Type.Object({ IsBlocked: Type.Boolean(), Comment: Type.Optional(Type.String()) }, strict);
const FullName = Type.Object(
  { LastName: Type.String({ minLength: 1 }), FirstName: Type.String({ minLength: 1 }), MiddleName: Type.Optional(Type.String()) },
  strict,
);

/** EmployeeToCreate (Employee.proto): the login is nested, `Credentials.Login.Login`. */
const EmployeeToCreate = Type.Object(
  {
    Credentials: Type.Object({ Login: Type.Object({ Login: Type.String({ minLength: 3 }), FullName }, strict) }, strict),
    Position: Type.Optional(Type.String()),
    CanBeInvitedForChat: Type.Boolean(),
    Permissions: Type.Object(
      {
        UserDepartmentId: Type.Optional(Type.String()),
        IsAdministrator: Type.Boolean(),
        DocumentAccessLevel: Level,
        SelectedDepartmentIds: Type.Optional(Type.Array(Type.String())),
        Actions: Type.Optional(Type.Array(Action)),
      },
      strict,
    ),
  },
  strict,
);

/** EmployeeToUpdate: every field in its own patch wrapper. */
const EmployeeToUpdate = Type.Object(
  {
    Permissions: Type.Optional(
      Type.Object(
        {
          Department: Type.Optional(Type.Object({ DepartmentId: Type.String() }, strict)),
          IsAdministrator: Type.Optional(Type.Object({ IsAdministrator: Type.Boolean() }, strict)),
          DocumentAccessLevel: Type.Optional(Type.Object({ DocumentAccessLevel: Level }, strict)),
          SelectedDepartments: Type.Optional(Type.Object({ SelectedDepartmentIds: Type.Array(Type.String()) }, strict)),
          Actions: Type.Optional(Type.Array(Action)),
          AuthorizationPermission: Type.Optional(Auth),
        },
        strict,
      ),
    ),
    Position: Type.Optional(Type.Object({ Position: Type.String() }, strict)),
    CanBeInvitedForChat: Type.Optional(Type.Object({ CanBeInvitedForChat: Type.Boolean() }, strict)),
  },
  strict,
);

const UserQuery = Type.Object({ boxId: Type.String(), userId: Type.String({ pattern: GUID }) });

/** GetEmployees, GetMyEmployee, GetEmployee, CreateEmployee, UpdateEmployee, DeleteEmployee (admin-only except GetMyEmployee). */
export function employeesRoutes(root: FastifyInstance, ctx: SimContext): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const me = (userId: unknown) => ctx.state.employees.find((e) => e.userId === userId && !e.deleted);
  const admin = (userId: unknown) => {
    if (!me(userId)?.isAdministrator) throw new DiadocError(403, 'Http.Forbidden', 'Only an administrator of the box may manage employees');
  };
  const find = (userId: string): SimEmployee => {
    const e = ctx.state.employees.find((x) => x.userId === userId.toLowerCase());
    if (!e || e.deleted) throw notFound(`Employee ${userId} not found in the box`, 'EmployeeNotFound');
    return e;
  };

  app.get(
    '/GetEmployees',
    { schema: { querystring: Type.Object({ boxId: Type.String(), page: Type.Optional(Type.Integer()), count: Type.Optional(Type.Integer()) }) } },
    async (request) => {
      const { boxId, page = 1, count = 50 } = request.query;
      requireOurBox(ctx, boxId);
      admin(request.headers['x-sim-user']);
      if (page < 1) throw badRequest('page must be >= 1');
      if (count < 1 || count > 50) throw badRequest('count must be 1..50');
      const list = ctx.state.employees
        .filter((e) => !e.deleted)
        .sort((a, b) => Number(a.isRegistered) - Number(b.isRegistered) || (a.creationTicks < b.creationTicks ? -1 : 1));
      return { Employees: list.slice((page - 1) * count, page * count).map(employeeJson), TotalCount: list.length };
    },
  );

  app.get('/GetMyEmployee', { schema: { querystring: Type.Object({ boxId: Type.String() }) } }, async (request) => {
    requireOurBox(ctx, request.query.boxId);
    const e = me(request.headers['x-sim-user']);
    if (!e) throw notFound('The current user is not an employee of the box', 'EmployeeNotFound');
    return employeeJson(e);
  });

  app.get('/GetEmployee', { schema: { querystring: UserQuery } }, async (request) => {
    requireOurBox(ctx, request.query.boxId);
    return employeeJson(find(request.query.userId));
  });

  app.post('/CreateEmployee', { schema: { querystring: Type.Object({ boxId: Type.String() }), body: EmployeeToCreate } }, async (request) => {
    requireOurBox(ctx, request.query.boxId);
    admin(request.headers['x-sim-user']);
    const b = request.body as Static<typeof EmployeeToCreate>;
    if (ctx.state.employees.some((e) => !e.deleted && e.login.toLowerCase() === b.Credentials.Login.Login.toLowerCase())) {
      throw new DiadocError(409, 'EmployeeAlreadyExists', `User ${b.Credentials.Login.Login} is already an employee of the box`);
    }
    const e: SimEmployee = {
      userId: ctx.ids.uuid(),
      login: b.Credentials.Login.Login,
      fullName: b.Credentials.Login.FullName,
      isRegistered: false,
      position: b.Position ?? '',
      canBeInvitedForChat: b.CanBeInvitedForChat,
      departmentId: b.Permissions.UserDepartmentId ?? HEAD_DEPARTMENT,
      isAdministrator: b.Permissions.IsAdministrator,
      accessLevel: b.Permissions.DocumentAccessLevel as AccessLevel,
      selectedDepartmentIds: b.Permissions.SelectedDepartmentIds ?? [],
      actions: b.Permissions.Actions ?? [],
      authorization: { IsBlocked: false, Comment: '' },
      creationTicks: ticksOf(ctx.clock.now()),
      deleted: false,
    };
    ctx.state.employees.push(e);
    return employeeJson(e);
  });

  app.post('/UpdateEmployee', { schema: { querystring: UserQuery, body: EmployeeToUpdate } }, async (request) => {
    requireOurBox(ctx, request.query.boxId);
    admin(request.headers['x-sim-user']);
    const e = find(request.query.userId);
    const { Permissions: p, Position, CanBeInvitedForChat } = request.body as Static<typeof EmployeeToUpdate>;
    if (Position) e.position = Position.Position;
    if (CanBeInvitedForChat) e.canBeInvitedForChat = CanBeInvitedForChat.CanBeInvitedForChat;
    if (p?.Department) e.departmentId = p.Department.DepartmentId;
    if (p?.IsAdministrator) e.isAdministrator = p.IsAdministrator.IsAdministrator;
    if (p?.DocumentAccessLevel) e.accessLevel = p.DocumentAccessLevel.DocumentAccessLevel as AccessLevel;
    if (p?.SelectedDepartments) e.selectedDepartmentIds = p.SelectedDepartments.SelectedDepartmentIds;
    if (p?.Actions) e.actions = p.Actions;
    if (p?.AuthorizationPermission)
      e.authorization = { IsBlocked: p.AuthorizationPermission.IsBlocked, Comment: p.AuthorizationPermission.Comment ?? '' };
    return employeeJson(e);
  });

  app.post('/DeleteEmployee', { schema: { querystring: UserQuery } }, async (request, reply) => {
    requireOurBox(ctx, request.query.boxId);
    admin(request.headers['x-sim-user']);
    const e = ctx.state.employees.find((x) => x.userId === request.query.userId.toLowerCase());
    if (!e) throw notFound(`Employee ${request.query.userId} not found`, 'EmployeeNotFound');
    e.deleted = true;
    return reply.status(200).send();
  });
}
