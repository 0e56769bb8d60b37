import type { EdoService } from './edo.service.js';
import * as S from './edo.schemas.js';
import { gatewaySchema, passRoute, type GatewayApp } from './gateway-route.js';

/** Employees, organizations and counteragents of the gateway (Spec: E-document operator gateway). */
export function edoDirectoryRoutes(app: GatewayApp, service: EdoService): void {
  passRoute(
    app,
    'GET',
    '/api/v1/edo/employees',
    gatewaySchema('listEdoEmployees', 'Employees (GetEmployees; page from 1, count 1–50)', S.EmployeeList, { querystring: S.EmployeesQuery }),
    (request) => service.employees(request.query.page, request.query.count),
  );
  passRoute(
    app,
    'GET',
    '/api/v1/edo/employees/me',
    gatewaySchema('getMyEdoEmployee', 'Current user as employee (GetMyEmployee)', S.DiadocEmployee),
    () => service.myEmployee(),
  );
  passRoute(
    app,
    'GET',
    '/api/v1/edo/employees/:userId',
    gatewaySchema('getEdoEmployee', 'One employee (GetEmployee)', S.DiadocEmployee, { params: S.UserParams }),
    (request) => service.employee(request.params.userId),
  );
  passRoute(
    app,
    'POST',
    '/api/v1/edo/employees',
    gatewaySchema('createEdoEmployee', 'Create an employee (CreateEmployee)', S.DiadocEmployee, { body: S.EmployeeCreateBody }),
    (request) => service.createEmployee(request.body),
  );
  passRoute(
    app,
    'PUT',
    '/api/v1/edo/employees/:userId',
    gatewaySchema('updateEdoEmployee', 'Update an employee (UpdateEmployee; fields translated into patch wrappers)', S.DiadocEmployee, {
      params: S.UserParams,
      body: S.EmployeeUpdateBody,
    }),
    (request) => service.updateEmployee(request.params.userId, request.body),
  );
  passRoute(
    app,
    'DELETE',
    '/api/v1/edo/employees/:userId',
    gatewaySchema('deleteEdoEmployee', 'Remove an employee (DeleteEmployee)', S.Deleted, { params: S.UserParams }),
    (request) => service.deleteEmployee(request.params.userId),
  );
  passRoute(
    app,
    'GET',
    '/api/v1/edo/organizations',
    gatewaySchema('listEdoOrganizations', 'Organizations of the authorised user (GetMyOrganizations, autoRegister=false)', S.OrganizationList),
    () => service.organizations(),
  );
  passRoute(
    app,
    'GET',
    '/api/v1/edo/organizations/current',
    gatewaySchema('getCurrentEdoOrganization', 'Organization of the configured box (GetOrganization?boxId=)', S.DiadocOrganization),
    () => service.currentOrganization(),
  );
  passRoute(
    app,
    'GET',
    '/api/v1/edo/organizations/search',
    gatewaySchema('searchEdoOrganizations', 'Search by INN / KPP (GetOrganizationsByInnKpp)', S.OrganizationList, { querystring: S.OrgSearchQuery }),
    (request) => service.searchOrganizations(request.query.inn, request.query.kpp),
  );
  passRoute(
    app,
    'GET',
    '/api/v1/edo/counteragents',
    gatewaySchema('listEdoCounteragents', 'Counterparties (V3/GetCounteragents)', S.CounteragentList, { querystring: S.CounteragentsQuery }),
    (request) => service.counteragents(request.query),
  );
}
