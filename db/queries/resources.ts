import type { Kysely } from 'kysely';
import type { Database, ResourcesTable, SessionResourcesTable, SessionsTable } from '../schema';

/** Guides, vehicles, boats and rooms, and their assignments to sessions (session_resources). */

export async function findLiveResource(db: Kysely<Database>, resourceId: number): Promise<ResourcesTable | undefined> {
  return db.selectFrom('resources').selectAll().where('id', '=', resourceId).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Every resource not archived, by name. */
export async function listLiveResources(db: Kysely<Database>): Promise<ResourcesTable[]> {
  return db.selectFrom('resources').selectAll().where('deleted_at', 'is', null).orderBy('name').orderBy('id').execute();
}

export async function insertResource(db: Kysely<Database>, row: ResourcesTable): Promise<void> {
  await db.insertInto('resources').values(row).execute();
}

export async function updateResource(db: Kysely<Database>, resourceId: number, changes: Pick<ResourcesTable, 'name' | 'resource_type' | 'seats'>): Promise<void> {
  await db.updateTable('resources').set(changes).where('id', '=', resourceId).execute();
}

/** Frees the resource from the sessions that have not ended by `now`; past ones keep it for the record. */
export async function unassignResourceFromUpcomingSessions(db: Kysely<Database>, resourceId: number, now: number): Promise<void> {
  const upcoming = db.selectFrom('sessions').select('id').where('end_at', '>', now);
  await db.deleteFrom('session_resources').where('resource_id', '=', resourceId).where('session_id', 'in', upcoming).execute();
}

export async function archiveResource(db: Kysely<Database>, resourceId: number, now: number): Promise<void> {
  await db.updateTable('resources').set({ deleted_at: now }).where('id', '=', resourceId).execute();
}

export async function findAssignment(db: Kysely<Database>, resourceId: number, sessionId: number): Promise<SessionResourcesTable | undefined> {
  return db.selectFrom('session_resources').selectAll().where('resource_id', '=', resourceId).where('session_id', '=', sessionId).executeTakeFirst();
}

export async function setAssignmentOrder(db: Kysely<Database>, resourceId: number, sessionId: number, resourceOrder: number): Promise<void> {
  await db.updateTable('session_resources').set({ resource_order: resourceOrder }).where('resource_id', '=', resourceId).where('session_id', '=', sessionId).execute();
}

/** The highest resource_order on the session (null when it has no resources or none is ordered). */
export async function lastResourceOrder(db: Kysely<Database>, sessionId: number): Promise<number | null> {
  const last = await db.selectFrom('session_resources').select((eb) => eb.fn.max('resource_order').as('n')).where('session_id', '=', sessionId).executeTakeFirst();
  return last?.n ?? null;
}

export async function insertAssignment(db: Kysely<Database>, row: SessionResourcesTable): Promise<void> {
  await db.insertInto('session_resources').values(row).execute();
}

/** Removes the assignment; answers how many rows went (0: the resource was not on the session). */
export async function deleteAssignment(db: Kysely<Database>, resourceId: number, sessionId: number): Promise<number> {
  const removed = await db.deleteFrom('session_resources').where('resource_id', '=', resourceId).where('session_id', '=', sessionId).executeTakeFirst();
  return Number(removed.numDeletedRows);
}

/** Another session of a resource, with its product's timezone to show its start. */
export type OverlappingSession = Pick<SessionsTable, 'id' | 'product_code' | 'start_at'> & { timezone: string | null };

/** The other sessions of the resource whose time overlaps [startAt, endAt), by start. */
export async function findOverlappingAssignments(db: Kysely<Database>, resourceId: number, sessionId: number, startAt: number, endAt: number): Promise<OverlappingSession[]> {
  return db
    .selectFrom('session_resources')
    .innerJoin('sessions', 'sessions.id', 'session_resources.session_id')
    .innerJoin('products', 'products.product_code', 'sessions.product_code')
    .select(['sessions.id', 'sessions.product_code', 'sessions.start_at', 'products.timezone'])
    .where('session_resources.resource_id', '=', resourceId)
    .where('sessions.id', '!=', sessionId)
    .where('sessions.start_at', '<', endAt)
    .where('sessions.end_at', '>', startAt)
    .orderBy('sessions.start_at')
    .execute();
}

/** A session's resources with their place in its list, by that place and then name. */
export async function findResourcesOfSession(db: Kysely<Database>, sessionId: number): Promise<(ResourcesTable & { resource_order: number | null })[]> {
  return db
    .selectFrom('session_resources')
    .innerJoin('resources', 'resources.id', 'session_resources.resource_id')
    .selectAll('resources')
    .select('session_resources.resource_order')
    .where('session_resources.session_id', '=', sessionId)
    .orderBy('session_resources.resource_order')
    .orderBy('resources.name')
    .execute();
}

export interface ResourceSessionsFilter {
  /** Sessions starting at or after this instant. */
  startFrom?: number;
  /** Sessions starting at or before this instant. */
  startUntil?: number;
  limit: number;
  offset: number;
}

/** The resource's sessions starting in the filter's range, by start and id. */
export async function findSessionsOfResource(db: Kysely<Database>, resourceId: number, filter: ResourceSessionsFilter): Promise<SessionsTable[]> {
  let q = db
    .selectFrom('sessions')
    .innerJoin('session_resources', 'session_resources.session_id', 'sessions.id')
    .selectAll('sessions')
    .where('session_resources.resource_id', '=', resourceId);
  if (filter.startFrom !== undefined) q = q.where('sessions.start_at', '>=', filter.startFrom);
  if (filter.startUntil !== undefined) q = q.where('sessions.start_at', '<=', filter.startUntil);
  return q.orderBy('sessions.start_at').orderBy('sessions.id').limit(filter.limit).offset(filter.offset).execute();
}
