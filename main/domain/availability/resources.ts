import type { ResourcesTable } from '../../../db/schema';
import {
  archiveResource,
  deleteAssignment,
  findAssignment,
  findLiveResource,
  findOverlappingAssignments,
  findResourcesOfSession,
  findSessionsOfResource,
  insertAssignment,
  insertResource,
  lastResourceOrder,
  listLiveResources,
  setAssignmentOrder,
  unassignResourceFromUpcomingSessions,
  updateResource,
  type OverlappingSession,
} from '../../../db/queries/resources';
import { findLiveProductTimezone, findSessionById, findSessionIdStartingAt } from '../../../db/queries/sessions';
import type { ResourceCreateBody, ResourceSessionsQuery, ResourceUpdateBody, SessionResourcesQuery } from '../../contract/resources';
import type { Actor, EngineContext, Tx } from '../context';
import type { CompaniesService } from '../platform/companies';
import type { AvailabilityService } from './sessions';
import type { Session } from './sessionAnswers';
import { DomainError } from '../errors';
import { parseTimeParam, toLocal } from '../time';

/** A guide, vehicle, boat or room the supplier assigns to sessions. */
export interface Resource {
  id: number;
  name: string;
  resourceType?: string;
  seats?: number;
  /** Only in a session's resource list: the resource's place in it. */
  resourceOrder?: number;
}

function toApi(row: ResourcesTable, resourceOrder?: number | null): Resource {
  const resource: Resource = { id: row.id, name: row.name };
  if (row.resource_type !== null) resource.resourceType = row.resource_type;
  if (row.seats !== null) resource.seats = row.seats;
  if (resourceOrder !== undefined && resourceOrder !== null) resource.resourceOrder = resourceOrder;
  return resource;
}

/** Overlapping assignments are allowed but warned: the warning names the first five. */
function overlapWarning(resource: ResourcesTable, overlapping: OverlappingSession[], zone: string): string | undefined {
  if (!overlapping.length) return undefined;
  return (
    `Resource ${resource.name} (${resource.id}) is also assigned to ${overlapping.length} overlapping session(s): ` +
    overlapping
      .slice(0, 5)
      .map((s) => `session ${s.id} (${s.product_code} at ${toLocal(s.start_at, s.timezone ?? zone)})`)
      .join(', ')
  );
}

export function createResources(ctx: EngineContext, deps: { companies: CompaniesService; availability: AvailabilityService }) {
  const { companies, availability } = deps;

  async function resourceRow(db: Tx['db'], id: number): Promise<ResourcesTable> {
    const row = await findLiveResource(db, id);
    if (!row) throw new DomainError('NOT_FOUND', `Resource ${id} was not found`);
    return row;
  }

  async function sessionRow(db: Tx['db'], id: number) {
    const row = await findSessionById(db, id);
    if (!row) throw new DomainError('NOT_FOUND', `Session ${id} was not found`);
    return row;
  }

  async function resourcesOfSession(db: Tx['db'], sessionId: number): Promise<Resource[]> {
    const rows = await findResourcesOfSession(db, sessionId);
    return rows.map((r) => toApi(r, r.resource_order));
  }

  const service = {
    async list(): Promise<Resource[]> {
      const rows = await listLiveResources(ctx.db);
      return rows.map((r) => toApi(r));
    },

    async create(input: ResourceCreateBody, actor: Actor): Promise<Resource> {
      return ctx.write(actor, async (tx) => {
        const id = ctx.ids.nextId();
        const row = { id, name: input.name, resource_type: input.resourceType ?? null, seats: input.seats ?? null, created_at: tx.now, deleted_at: null };
        await insertResource(tx.db, row);
        await tx.journal('resource', id, 'create', input);
        return toApi(row);
      });
    },

    async update(id: number, input: ResourceUpdateBody, actor: Actor): Promise<Resource> {
      return ctx.write(actor, async (tx) => {
        const row = await resourceRow(tx.db, id);
        const next = { ...row, name: input.name ?? row.name, resource_type: input.resourceType ?? row.resource_type, seats: input.seats ?? row.seats };
        await updateResource(tx.db, id, { name: next.name, resource_type: next.resource_type, seats: next.seats });
        await tx.journal('resource', id, 'update', input);
        return toApi(next);
      });
    },

    /** Archives the resource and frees it from sessions that have not ended; past ones keep it for the record. */
    async remove(id: number, actor: Actor): Promise<void> {
      await ctx.write(actor, async (tx) => {
        await resourceRow(tx.db, id);
        await unassignResourceFromUpcomingSessions(tx.db, id, tx.now);
        await archiveResource(tx.db, id, tx.now);
        await tx.journal('resource', id, 'delete', {});
      });
    },

    /** Assigns (or re-orders) a resource on a session. Overlapping assignments are allowed but warned. */
    async assign(resourceId: number, sessionId: number, resourceOrder: number | undefined, actor: Actor): Promise<{ resources: Resource[]; warning?: string }> {
      const zone = (await companies.supplier()).timezone;
      return ctx.write(actor, async (tx) => {
        const resource = await resourceRow(tx.db, resourceId);
        const session = await sessionRow(tx.db, sessionId);
        const existing = await findAssignment(tx.db, resourceId, sessionId);
        if (existing) {
          if (resourceOrder !== undefined) await setAssignmentOrder(tx.db, resourceId, sessionId, resourceOrder);
        } else {
          const last = await lastResourceOrder(tx.db, sessionId);
          await insertAssignment(tx.db, { resource_id: resourceId, session_id: sessionId, resource_order: resourceOrder ?? Number(last ?? 0) + 1 });
        }
        await tx.journal('session_resource', `${resourceId}:${sessionId}`, 'assign', { resourceId, sessionId, resourceOrder });
        const overlapping = await findOverlappingAssignments(tx.db, resourceId, sessionId, session.start_at, session.end_at);
        return { resources: await resourcesOfSession(tx.db, sessionId), warning: overlapWarning(resource, overlapping, zone) };
      });
    },

    async unassign(resourceId: number, sessionId: number, actor: Actor): Promise<Resource[]> {
      return ctx.write(actor, async (tx) => {
        await resourceRow(tx.db, resourceId);
        await sessionRow(tx.db, sessionId);
        const removed = await deleteAssignment(tx.db, resourceId, sessionId);
        if (removed === 0) throw new DomainError('NOT_FOUND', `Resource ${resourceId} is not assigned to session ${sessionId}`);
        await tx.journal('session_resource', `${resourceId}:${sessionId}`, 'unassign', { resourceId, sessionId });
        return resourcesOfSession(tx.db, sessionId);
      });
    },

    /** The resource's sessions starting in the range (local bounds in the company's timezone), by start. */
    async sessionsOf(resourceId: number, query: ResourceSessionsQuery): Promise<Session[]> {
      await resourceRow(ctx.db, resourceId);
      const zone = (await companies.supplier()).timezone;
      const lowerText = query.startTime ?? query.startTimeLocal;
      const upperText = query.endTime ?? query.endTimeLocal;
      const startFrom = lowerText === undefined ? undefined : parseTimeParam(lowerText, zone, 'lower', query.startTime !== undefined ? 'startTime' : 'startTimeLocal');
      const startUntil = upperText === undefined ? undefined : parseTimeParam(upperText, zone, 'upper', query.endTime !== undefined ? 'endTime' : 'endTimeLocal');
      const rows = await findSessionsOfResource(ctx.db, resourceId, { startFrom, startUntil, limit: query.limit, offset: query.offset });
      return availability.toApi(rows);
    },

    /** The resources of one session, named by sessionId or productCode + startTime/startTimeLocal. */
    async ofSession(lookup: SessionResourcesQuery): Promise<Resource[]> {
      if (lookup.sessionId !== undefined) return resourcesOfSession(ctx.db, (await sessionRow(ctx.db, lookup.sessionId)).id);
      const startText = lookup.startTime ?? lookup.startTimeLocal;
      if (!lookup.productCode || startText === undefined) {
        throw new DomainError('VALIDATION_ERROR', 'Name the session with sessionId, or productCode and startTime or startTimeLocal');
      }
      const product = await findLiveProductTimezone(ctx.db, lookup.productCode);
      if (!product) throw new DomainError('NOT_FOUND', `Product ${lookup.productCode} was not found`);
      const zone = product.timezone ?? (await companies.supplier()).timezone;
      const start = parseTimeParam(startText, zone, 'lower', lookup.startTime !== undefined ? 'startTime' : 'startTimeLocal');
      const session = await findSessionIdStartingAt(ctx.db, product.product_code, start);
      if (!session) throw new DomainError('NOT_FOUND', `Product ${product.product_code} has no session starting at ${startText}`);
      return resourcesOfSession(ctx.db, session.id);
    },
  };
  return service;
}

export type ResourcesService = ReturnType<typeof createResources>;
