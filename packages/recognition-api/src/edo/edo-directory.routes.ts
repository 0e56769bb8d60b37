import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { gatewaySchema } from './gateway-route.js';
import { pass } from './pass-through.js';
import * as S from './edo.schemas.js';
import type { EdoService } from './edo.service.js';

/** Employees, organizations and counteragents of the gateway (Spec: E-document operator gateway). */
export function edoDirectoryRoutes(root: FastifyInstance, service: EdoService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/api/v1/edo/employees',
    {
      schema: gatewaySchema('listEdoEmployees', 'Employees (GetEmployees; page from 1, count 1–50)', S.EmployeeList, {
        querystring: S.EmployeesQuery,
      }),
    },
    async (request) => pass(service.employees(request.query.page, request.query.count)),
  );

  app.get(
    '/api/v1/edo/employees/me',
    {
      schema: gatewaySchema('getMyEdoEmployee', 'Current user as employee (GetMyEmployee)', S.DiadocEmployee),
    },
    async () => pass(service.myEmployee()),
  );

  app.get(
    '/api/v1/edo/employees/:userId',
    {
      schema: gatewaySchema('getEdoEmployee', 'One employee (GetEmployee)', S.DiadocEmployee, { params: S.UserParams }),
    },
    async (request) => pass(service.employee(request.params.userId)),
  );

  app.post(
    '/api/v1/edo/employees',
    {
      schema: gatewaySchema('createEdoEmployee', 'Create an employee (CreateEmployee)', S.DiadocEmployee, { body: S.EmployeeCreateBody }),
    },
    async (request) => pass(service.createEmployee(request.body)),
  );

  app.put(
    '/api/v1/edo/employees/:userId',
    {
      schema: gatewaySchema('updateEdoEmployee', 'Update an employee (UpdateEmployee; fields translated into patch wrappers)', S.DiadocEmployee, {
        params: S.UserParams,
        body: S.EmployeeUpdateBody,
      }),
    },
    async (request) => pass(service.updateEmployee(request.params.userId, request.body)),
  );

  app.delete(
    '/api/v1/edo/employees/:userId',
    {
      schema: gatewaySchema('deleteEdoEmployee', 'Remove an employee (DeleteEmployee)', S.Deleted, { params: S.UserParams }),
    },
    async (request) => pass(service.deleteEmployee(request.params.userId)),
  );

  app.get(
    '/api/v1/edo/organizations',
    {
      schema: gatewaySchema(
        'listEdoOrganizations',
        'Organizations of the authorised user (GetMyOrganizations, autoRegister=false)',
        S.OrganizationList,
      ),
    },
    async () => pass(service.organizations()),
  );

  app.get(
    '/api/v1/edo/organizations/current',
    {
      schema: gatewaySchema('getCurrentEdoOrganization', 'Organization of the configured box (GetOrganization?boxId=)', S.DiadocOrganization),
    },
    async () => pass(service.currentOrganization()),
  );

  app.get(
    '/api/v1/edo/organizations/search',
    {
      schema: gatewaySchema('searchEdoOrganizations', 'Search by INN / KPP (GetOrganizationsByInnKpp)', S.OrganizationList, {
        querystring: S.OrgSearchQuery,
      }),
    },
    async (request) => pass(service.searchOrganizations(request.query.inn, request.query.kpp)),
  );

  app.get(
    '/api/v1/edo/counteragents',
    {
      schema: gatewaySchema('listEdoCounteragents', 'Counterparties (V3/GetCounteragents)', S.CounteragentList, {
        querystring: S.CounteragentsQuery,
      }),
    },
    async (request) => pass(service.counteragents(request.query)),
  );
}
