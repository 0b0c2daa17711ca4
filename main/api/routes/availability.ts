import { z } from 'zod';
import { defineRoute, type RouteHost } from '../route';
import { withWarning } from '../envelope';
import { idParam } from '../../contract/common';
import { availabilitySearchSchema, sessionBatchSchema, sessionCreateSchema, sessionUpdateSchema, type SessionAnswer } from '../../contract/availability';

const idParams = z.object({ sessionId: idParam });
const startParams = z.object({ productCode: z.string().trim().min(1).max(40), startTimeLocal: z.string().trim().min(1).max(40) });
const REPLACEMENT = 'PUT /v1/availability/product/{productCode}/startTimeLocal/{startTimeLocal}';
const DEPRECATED = `PUT /v1/availability/{sessionId} is deprecated; use ${REPLACEMENT} instead.`;

const joined = (warnings: string[]) => (warnings.length ? warnings.join(' ') : undefined);

export function registerAvailabilityRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'POST',
    path: '/v1/availability',
    summary: 'Create a session',
    tag: 'Availability',
    right: 'availability:write',
    body: sessionCreateSchema,
    handler: async ({ body, actor, engine }) => ({ session: await engine.availability.create(body, actor) }),
  });
  defineRoute(host, {
    method: 'POST',
    path: '/v1/availability/batch',
    summary: 'Create many sessions at once (all or nothing)',
    description: 'Body: an array of sessions, or { "sessions": [...] }. One bad entry writes none; the error names its index.',
    tag: 'Availability',
    right: 'availability:write',
    body: sessionBatchSchema,
    handler: async ({ body, actor, engine }) => ({ sessions: await engine.availability.createBatch(body, actor) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/availability',
    summary: 'Search sessions of one or more products, ordered by start',
    tag: 'Availability',
    right: 'availability:read',
    query: availabilitySearchSchema,
    handler: async ({ query, engine }): Promise<{ sessions: SessionAnswer[] }> => {
      const { sessions, warnings } = await engine.availability.search(query);
      return withWarning({ sessions }, joined(warnings));
    },
  });
  defineRoute(host, {
    method: 'PUT',
    path: '/v1/availability/:sessionId',
    summary: 'Update a session by id (deprecated)',
    description: `Deprecated: use ${REPLACEMENT}. Still fully working; answers a requestStatus.warning.`,
    deprecated: true,
    tag: 'Availability',
    right: 'availability:write',
    params: idParams,
    body: sessionUpdateSchema,
    handler: async ({ params, body, actor, engine }) => {
      const { session, warnings } = await engine.availability.update({ sessionId: params.sessionId }, body, actor);
      return withWarning({ session }, joined([DEPRECATED, ...warnings]));
    },
  });
  defineRoute(host, {
    method: 'PUT',
    path: '/v1/availability/product/:productCode/startTimeLocal/:startTimeLocal',
    summary: 'Update the session of a product starting at a local time',
    tag: 'Availability',
    right: 'availability:write',
    params: startParams,
    body: sessionUpdateSchema,
    handler: async ({ params, body, actor, engine }) => {
      const { session, warnings } = await engine.availability.update(params, body, actor);
      return withWarning({ session }, joined(warnings));
    },
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/availability/:sessionId',
    summary: 'Delete a session by id (refused while live bookings hold it)',
    tag: 'Availability',
    right: 'availability:write',
    params: idParams,
    handler: async ({ params, actor, engine }) => {
      await engine.availability.remove({ sessionId: params.sessionId }, actor);
      return {};
    },
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/availability/product/:productCode/startTimeLocal/:startTimeLocal',
    summary: 'Delete the session of a product starting at a local time (refused while live bookings hold it)',
    tag: 'Availability',
    right: 'availability:write',
    params: startParams,
    handler: async ({ params, actor, engine }) => {
      await engine.availability.remove(params, actor);
      return {};
    },
  });
}
