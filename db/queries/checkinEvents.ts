import type { Insertable, Kysely } from 'kysely';
import type { CheckinEventsTable, Database } from '../schema';
import { fixedInsert, fixedQuery } from './compiled';

/** The check-in event log: append-only rows, read by event id, by participant or by session. */

const eventInsert = fixedInsert('checkin_events');

/** Appends one event (never updated afterwards), inside the caller's write transaction. */
export async function insertCheckinEvent(db: Kysely<Database>, row: Insertable<CheckinEventsTable>): Promise<void> {
  await eventInsert(db, [row]);
}

/** The kind and stored first answer of an event id, to answer a resend with what it answered first. */
const eventAnswer = fixedQuery((db, eventId: string) => db.selectFrom('checkin_events').select(['kind', 'answer_json']).where('event_id', '=', eventId));
export async function findEventAnswer(db: Kysely<Database>, eventId: string): Promise<Pick<CheckinEventsTable, 'kind' | 'answer_json'> | undefined> {
  return (await eventAnswer(db, eventId))[0];
}

/** What an UNDO needs to know about the event it names. */
export async function findUndoTarget(db: Kysely<Database>, eventId: string): Promise<Pick<CheckinEventsTable, 'session_id' | 'participant_id' | 'kind'> | undefined> {
  return db.selectFrom('checkin_events').select(['session_id', 'participant_id', 'kind']).where('event_id', '=', eventId).executeTakeFirst();
}

/** Every event (SCAN rows too) about these participants, in no set order (PostgreSQL keeps none): callers order them (historyView). */
export async function eventsOfParticipants(db: Kysely<Database>, participantIds: readonly number[]): Promise<CheckinEventsTable[]> {
  if (participantIds.length === 0) return [];
  return db.selectFrom('checkin_events').selectAll().where('participant_id', 'in', participantIds).execute();
}

/** The columns a derived check-in state reads (see domain/checkin/state.ts). */
export type StateEventRow = Pick<
  CheckinEventsTable,
  'event_id' | 'kind' | 'participant_id' | 'session_id' | 'undoes_event_id' | 'parent_event_id' | 'occurred_at' | 'device' | 'api_key_id' | 'key_name'
>;

/** A session's CLOSE and REOPEN events and every UNDO in it: enough to tell whether its check-in is closed. */
const closingEvents = fixedQuery((db, sessionId: number) =>
  db
    .selectFrom('checkin_events')
    .select(['event_id', 'kind', 'participant_id', 'session_id', 'undoes_event_id', 'parent_event_id', 'occurred_at', 'device', 'api_key_id', 'key_name'])
    .where('session_id', '=', sessionId)
    .where('kind', 'in', ['CLOSE', 'REOPEN', 'UNDO']),
);
export async function closingEventsOfSession(db: Kysely<Database>, sessionId: number): Promise<StateEventRow[]> {
  return closingEvents(db, sessionId);
}
