import { z } from 'zod';
import { defineRoute, type RouteHost } from '../route';
import { customerSchema, type Customer, type CustomerList } from '../../contract/customers';
import { idParam } from '../../contract/common';
import { paging, qString } from '../../contract/query';

const idParams = z.object({ customerId: idParam });

export function registerCustomerRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'POST',
    path: '/v1/customers',
    summary: 'Create a customer',
    tag: 'Customers',
    right: 'customers',
    body: customerSchema,
    handler: async ({ body, actor, engine }): Promise<{ customer: Customer }> => ({ customer: await engine.customers.create(body, actor) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/customers',
    summary: 'Search customers by name, email or phone',
    tag: 'Customers',
    right: 'customers',
    query: z.object({ search: qString.optional(), ...paging }),
    handler: async ({ query, engine }): Promise<CustomerList> => ({ customers: await engine.customers.search(query) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/customers/:customerId',
    summary: 'Get a customer',
    tag: 'Customers',
    right: 'customers',
    params: idParams,
    handler: async ({ params, engine }): Promise<{ customer: Customer }> => ({ customer: await engine.customers.get(params.customerId) }),
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/customers/:customerId',
    summary: 'Delete a customer (anonymised instead when it has bookings)',
    tag: 'Customers',
    right: 'customers',
    params: idParams,
    // `anonymised: true` when the customer had bookings and was blanked in place, false when deleted.
    handler: async ({ params, actor, engine }): Promise<{ anonymised: boolean }> => engine.customers.remove(params.customerId, actor),
  });
}
