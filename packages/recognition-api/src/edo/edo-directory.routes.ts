import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import { pass } from './pass-through.js';
import * as S from './edo.schemas.js';
import type { EdoService } from './edo.service.js';

const tags = ['edo'];

/** Employees, organizations and counteragents of the gateway (Spec: E-document operator gateway). */
export function edoDirectoryRoutes(root: FastifyInstance, service: EdoService, errors: Record<number, TSchema>): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/api/v1/edo/employees',
    {
      schema: {
        tags,
        operationId: 'listEdoEmployees',
        summary: 'Employees (GetEmployees; page from 1, count 1–50)',
        querystring: S.EmployeesQuery,
        response: { 200: S.EmployeeList, ...errors },
      },
    },
    async (request) => pass(service.employees(request.query.page, request.query.count)),
  );

  app.get(
    '/api/v1/edo/employees/me',
    {
      schema: {
        tags,
        operationId: 'getMyEdoEmployee',
        summary: 'Current user as employee (GetMyEmployee)',
        response: { 200: S.DiadocEmployee, ...errors },
      },
    },
    async () => pass(service.myEmployee()),
  );

  app.get(
    '/api/v1/edo/employees/:userId',
    {
      schema: {
        tags,
        operationId: 'getEdoEmployee',
        summary: 'One employee (GetEmployee)',
        params: S.UserParams,
        response: { 200: S.DiadocEmployee, ...errors },
      },
    },
    async (request) => pass(service.employee(request.params.userId)),
  );

  app.post(
    '/api/v1/edo/employees',
    {
      schema: {
        tags,
        operationId: 'createEdoEmployee',
        summary: 'Create an employee (CreateEmployee)',
        body: S.EmployeeCreateBody,
        response: { 200: S.DiadocEmployee, ...errors },
      },
    },
    async (request) => pass(service.createEmployee(request.body)),
  );

  app.put(
    '/api/v1/edo/employees/:userId',
    {
      schema: {
        tags,
        operationId: 'updateEdoEmployee',
        summary: 'Update an employee (UpdateEmployee; fields translated into patch wrappers)',
        params: S.UserParams,
        body: S.EmployeeUpdateBody,
        response: { 200: S.DiadocEmployee, ...errors },
      },
    },
    async (request) => pass(service.updateEmployee(request.params.userId, request.body)),
  );

  app.delete(
    '/api/v1/edo/employees/:userId',
    {
      schema: {
        tags,
        operationId: 'deleteEdoEmployee',
        summary: 'Remove an employee (DeleteEmployee)',
        params: S.UserParams,
        response: { 200: S.Deleted, ...errors },
      },
    },
    async (request) => pass(service.deleteEmployee(request.params.userId)),
  );

  app.get(
    '/api/v1/edo/organizations',
    {
      schema: {
        tags,
        operationId: 'listEdoOrganizations',
        summary: 'Organizations of the authorised user (GetMyOrganizations, autoRegister=false)',
        response: { 200: S.OrganizationList, ...errors },
      },
    },
    async () => pass(service.organizations()),
  );

  app.get(
    '/api/v1/edo/organizations/current',
    {
      schema: {
        tags,
        operationId: 'getCurrentEdoOrganization',
        summary: 'Organization of the configured box (GetOrganization?boxId=)',
        response: { 200: S.DiadocOrganization, ...errors },
      },
    },
    async () => pass(service.currentOrganization()),
  );

  app.get(
    '/api/v1/edo/organizations/search',
    {
      schema: {
        tags,
        operationId: 'searchEdoOrganizations',
        summary: 'Search by INN / KPP (GetOrganizationsByInnKpp)',
        querystring: S.OrgSearchQuery,
        response: { 200: S.OrganizationList, ...errors },
      },
    },
    async (request) => pass(service.searchOrganizations(request.query.inn, request.query.kpp)),
  );

  app.get(
    '/api/v1/edo/counteragents',
    {
      schema: {
        tags,
        operationId: 'listEdoCounteragents',
        summary: 'Counterparties (V3/GetCounteragents)',
        querystring: S.CounteragentsQuery,
        response: { 200: S.CounteragentList, ...errors },
      },
    },
    async (request) => pass(service.counteragents(request.query)),
  );
}
