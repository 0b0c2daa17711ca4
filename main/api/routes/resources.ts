import { z } from 'zod';
import { defineRoute, type RouteHost } from '../route';
import { withWarning } from '../envelope';
import { idParam } from '../../contract/common';
import { resourceCreateSchema, resourceOrderQuery, resourceSessionsQuery, resourceUpdateSchema, sessionResourcesQuery } from '../../contract/resources';

const resourceParams = z.object({ resourceId: idParam });
const assignmentParams = z.object({ resourceId: idParam, sessionId: idParam });

export function registerResourceRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'GET',
    path: '/v1/resources',
    summary: 'List the supplier\'s resources (guides, vehicles, boats, rooms)',
    tag: 'Resources',
    right: 'availability:read',
    handler: async ({ engine }) => ({ resources: await engine.resources.list() }),
  });
  defineRoute(host, {
    method: 'POST',
    path: '/v1/resources',
    summary: 'Create a resource (TourDesk extension)',
    tag: 'Resources',
    right: 'availability:write',
    body: resourceCreateSchema,
    handler: async ({ body, actor, engine }) => {
      const resource = await engine.resources.create(body, actor);
      return { resource, resources: [resource] };
    },
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/resources/session',
    summary: 'The resources of a session (sessionId, or productCode + startTime/startTimeLocal)',
    tag: 'Resources',
    right: 'availability:read',
    query: sessionResourcesQuery,
    handler: async ({ query, engine }) => ({ resources: await engine.resources.ofSession(query) }),
  });
  defineRoute(host, {
    method: 'PUT',
    path: '/v1/resources/:resourceId',
    summary: 'Update a resource (TourDesk extension; fields left out keep their value)',
    tag: 'Resources',
    right: 'availability:write',
    params: resourceParams,
    body: resourceUpdateSchema,
    handler: async ({ params, body, actor, engine }) => {
      const resource = await engine.resources.update(params.resourceId, body, actor);
      return { resource, resources: [resource] };
    },
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/resources/:resourceId',
    summary: 'Delete a resource (TourDesk extension; frees it from sessions that have not ended)',
    tag: 'Resources',
    right: 'availability:write',
    params: resourceParams,
    handler: async ({ params, actor, engine }) => {
      await engine.resources.remove(params.resourceId, actor);
      return {};
    },
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/resources/:resourceId/sessions',
    summary: 'The sessions a resource is assigned to, by start',
    tag: 'Resources',
    right: 'availability:read',
    params: resourceParams,
    query: resourceSessionsQuery,
    handler: async ({ params, query, engine }) => ({ sessions: await engine.resources.sessionsOf(params.resourceId, query) }),
  });
  defineRoute(host, {
    method: 'PUT',
    path: '/v1/resources/:resourceId/session/:sessionId',
    summary: 'Assign a resource to a session (optional resourceOrder); overlapping assignments are warned',
    tag: 'Resources',
    right: 'availability:write',
    params: assignmentParams,
    query: resourceOrderQuery,
    handler: async ({ params, query, actor, engine }) => {
      const { resources, warning } = await engine.resources.assign(params.resourceId, params.sessionId, query.resourceOrder, actor);
      return withWarning({ resources }, warning);
    },
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/resources/:resourceId/session/:sessionId',
    summary: 'Remove a resource from a session',
    tag: 'Resources',
    right: 'availability:write',
    params: assignmentParams,
    handler: async ({ params, actor, engine }) => ({ resources: await engine.resources.unassign(params.resourceId, params.sessionId, actor) }),
  });
}
