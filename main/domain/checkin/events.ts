import type { Kysely } from 'kysely';
import type { CheckinEventsTable, Database } from '../../../db/schema';
import { loadSessionEvents } from '../../../db/queries/manifest';
import { findEventAnswer, findUndoTarget, insertCheckinEvent } from '../../../db/queries/checkinEvents';
import { bookingStatusOf, itemIdsOfOrderInSession, liveParticipantIdsOf, participantIdsOfItems, participantOwner } from '../../../db/queries/checkinBookings';
import { findSessionById } from '../../../db/queries/departures';
import type { Actor, EngineContext, Tx } from '../context';
import { deriveCheckinState, stateOf } from './state';
import { DomainError } from '../errors';
import { toEvent } from './manifestView';
import type { ManifestSessionRef, ManifestsService } from './manifests';
import { isLive } from '../statuses';
import { fromIso, toLocal } from '../time';
import type { CheckinEventBody, EventAnswer, EventOverridableRule, EventsAnswer, RecordedEvent, RejectedEvent } from '../../contract/manifest';
import { decideTap } from './tapDecision';
import { manifestFingerprint } from '../../../db/queries/manifestVersion';
import { signatureOf } from '../signature';
import type { CompaniesService } from '../platform/companies';

export type NewEventRow = Omit<CheckinEventsTable, 'recorded_at' | 'api_key_id' | 'key_name'>;

/** The event as stored: signed by the request's key and the device it named (main/domain/signature.ts). */
export const signedEvent = (tx: Tx, row: NewEventRow): CheckinEventsTable => ({ ...row, ...signatureOf(tx.actor, row.device), recorded_at: tx.now });

/** Appends one event (append-only: never updated) and its journal entry. */
export async function insertEvent(tx: Tx, row: NewEventRow): Promise<CheckinEventsTable> {
  const stored = signedEvent(tx, row);
  await insertCheckinEvent(tx.db, stored);
  const { answer_json: _answer, ...logged } = stored;
  await tx.journal('checkin_event', stored.event_id, stored.kind, logged);
  return stored;
}

export const blankEvent = (eventId: string, kind: string, occurredAt: number): NewEventRow => ({
  event_id: eventId,
  kind,
  session_id: null,
  order_number: null,
  participant_id: null,
  code: null,
  undoes_event_id: null,
  result: null,
  override_json: null,
  note: null,
  device: null,
  occurred_at: occurredAt,
  answer_json: null,
  parent_event_id: null,
});

export function createCheckin(ctx: EngineContext, deps: { manifests: ManifestsService; companies: Pick<CompaniesService, 'supplierOrNull'> }) {
  const serverEventId = () => `td-${ctx.ids.nextId()}`;

  async function checkInAll(actor: Actor, ref: ManifestSessionRef, orderNumber?: string): Promise<number> {
    return ctx.write(actor, async (tx) => {
      const { resolved, participantIds, derived, cancelled } = await targetsOf(tx.db, deps.manifests, ref, orderNumber);
      if (cancelled) throw new DomainError('INVALID_STATE', `Order ${orderNumber} is cancelled; its participants cannot be checked in`);
      // Only sync leaves an order with no passengers (its booking arrived, its participants are in a later page):
      // answering success would check in nobody.
      if (orderNumber !== undefined && participantIds.length === 0) {
        throw new DomainError('INVALID_STATE', `Order ${orderNumber}'s passengers have not reached this instance yet (sync is still bringing them); nobody was checked in. Sync, then try again.`);
      }
      let count = 0;
      for (const participantId of participantIds) {
        if (stateOf(derived, participantId).status === 'CHECKED_IN') continue;
        await insertEvent(tx, {
          ...blankEvent(serverEventId(), 'CHECK_IN', tx.now),
          session_id: resolved.session.id,
          order_number: orderNumber ?? null,
          participant_id: participantId,
          result: 'CHECKED_IN',
          note: orderNumber ? 'checkinOrderSession' : 'checkinSession',
        });
        count++;
      }
      return count;
    });
  }

  /** Undoes, one UNDO each, exactly the check-ins in force for the targets. */
  async function undoAll(actor: Actor, ref: ManifestSessionRef, orderNumber?: string): Promise<number> {
    return ctx.write(actor, async (tx) => {
      const { resolved, participantIds, derived, cancelled } = await targetsOf(tx.db, deps.manifests, ref, orderNumber);
      if (cancelled) throw new DomainError('INVALID_STATE', `Order ${orderNumber} is cancelled; its check-in cannot be changed`);
      let count = 0;
      for (const participantId of participantIds) {
        const state = stateOf(derived, participantId);
        if (state.status !== 'CHECKED_IN' || !state.event) continue;
        await insertEvent(tx, {
          ...blankEvent(serverEventId(), 'UNDO', tx.now),
          session_id: resolved.session.id,
          order_number: orderNumber ?? null,
          participant_id: participantId,
          undoes_event_id: state.event.eventId,
          result: 'UNDONE',
          note: orderNumber ? 'checkinOrderSession' : 'checkinSession',
        });
        count++;
      }
      return count;
    });
  }

  async function isCheckedIn(ref: ManifestSessionRef, orderNumber?: string): Promise<boolean> {
    const { participantIds, derived } = await targetsOf(ctx.db, deps.manifests, ref, orderNumber);
    return participantIds.length > 0 && participantIds.every((id) => stateOf(derived, id).status === 'CHECKED_IN');
  }

  return {
    checkInSession: (actor: Actor, ref: ManifestSessionRef) => checkInAll(actor, ref),
    undoSession: (actor: Actor, ref: ManifestSessionRef) => undoAll(actor, ref),
    isSessionCheckedIn: (ref: ManifestSessionRef) => isCheckedIn(ref),
    checkInOrder: (actor: Actor, orderNumber: string, ref: ManifestSessionRef) => checkInAll(actor, ref, orderNumber),
    undoOrder: (actor: Actor, orderNumber: string, ref: ManifestSessionRef) => undoAll(actor, ref, orderNumber),
    isOrderCheckedIn: (orderNumber: string, ref: ManifestSessionRef) => isCheckedIn(ref, orderNumber),

    /**
     * Stores a batch of device events in one transaction. A resent eventId answers its first
     * answer and changes nothing; an event naming an unknown session or a participant of another
     * session is rejected (not stored, so a corrected resend can still land).
     */
    async record(actor: Actor, events: CheckinEventBody[]): Promise<EventAnswer[]> {
      return (await this.recordWithVersions(actor, events)).events;
    },

    /**
     * record(), plus each named session's manifest version before and after the batch (read in the
     * same transaction): a client holding `before` applies its own answered events locally and
     * adopts `after`, with no need to fetch the manifest again.
     */
    async recordWithVersions(actor: Actor, events: CheckinEventBody[]): Promise<EventsAnswer> {
      // A tap's refusal names who checked the person in: the key names are read before the write
      // lock, where they can be kept, so the transaction answers them from memory (as a scan does).
      // The company's locale likewise: a refusal words times as it reads them.
      const taps = events.some((e) => e.kind === 'CHECK_IN' && !e.decidedOffline);
      if (taps) await deps.manifests.keyNames(ctx.db);
      const locale = taps ? ((await deps.companies.supplierOrNull())?.locale ?? null) : null;
      return ctx.write(actor, async (tx) => {
        const sessionIds = [...new Set(events.map((e) => e.sessionId))].slice(0, 20);
        const before = await Promise.all(sessionIds.map((id) => manifestFingerprint(tx.db, id)));
        const answers: EventAnswer[] = [];
        for (const input of events) answers.push(await recordDeviceEvent(tx, deps.manifests, input, locale));
        const after = await Promise.all(sessionIds.map((id) => manifestFingerprint(tx.db, id)));
        return { events: answers, manifestVersions: sessionIds.map((sessionId, i) => ({ sessionId, before: before[i], after: after[i] })) };
      });
    },
  };
}

/** The live participants of a session (or of one order in it) and the check-ins in force for them. */
async function targetsOf(db: Kysely<Database>, manifests: ManifestsService, ref: ManifestSessionRef, orderNumber?: string) {
  const resolved = await manifests.resolveSession(db, ref);
  const sessionId = resolved.session.id;
  let participantIds: number[];
  let cancelled = false;
  if (orderNumber === undefined) {
    participantIds = await liveParticipantIdsOf(db, sessionId);
  } else {
    const booking = await bookingStatusOf(db, orderNumber);
    if (!booking) throw new DomainError('24', `No order found with orderNumber ${orderNumber}`);
    const itemIds = await itemIdsOfOrderInSession(db, orderNumber, sessionId);
    if (itemIds.length === 0) {
      throw new DomainError('NOT_FOUND', `Order ${orderNumber} has no item in the ${resolved.session.product_code} session at ${toLocal(resolved.session.start_at, resolved.timezone)}`);
    }
    participantIds = await participantIdsOfItems(db, itemIds);
    cancelled = !isLive(booking.status);
  }
  const derived = deriveCheckinState((await loadSessionEvents(db, sessionId)).map(toEvent));
  return { resolved, participantIds, derived, cancelled };
}

/**
 * Checks one device event and stores it, answering RECORDED; a resent eventId answers its first
 * answer, and an event naming an unknown session or a participant of another session is REJECTED
 * (not stored, so a corrected resend can still land).
 */
async function recordDeviceEvent(tx: Tx, manifests: ManifestsService, input: CheckinEventBody, locale: string | null): Promise<EventAnswer> {
  const existing = await findEventAnswer(tx.db, input.eventId);
  if (existing) return existing.answer_json ? (JSON.parse(existing.answer_json) as EventAnswer) : { eventId: input.eventId, result: 'RECORDED' };
  const occurredAt = fromIso(input.occurredAt, 'occurredAt');
  const reject = (message: string): RejectedEvent => ({ eventId: input.eventId, kind: input.kind, result: 'REJECTED', message });
  const session = await findSessionById(tx.db, input.sessionId);
  if (!session) return reject(`Session ${input.sessionId} was not found`);
  const row: NewEventRow = { ...blankEvent(input.eventId, input.kind, occurredAt), session_id: session.id, device: input.device ?? null, note: input.note ?? null };
  let conflict: string | null = null;
  let overrides: EventOverridableRule[] | undefined;
  if (input.kind === 'CHECK_IN' || input.kind === 'NO_SHOW') {
    if (input.participantId === undefined) return reject(`A ${input.kind} event needs participantId`);
    const owner = await participantOwner(tx.db, input.participantId);
    if (!owner) return reject(`Participant ${input.participantId} was not found`);
    if (owner.session_id !== session.id) return reject(`Participant ${input.participantId} belongs to session ${owner.session_id}, not ${session.id}`);
    row.participant_id = input.participantId;
    row.order_number = owner.order_number;
    if (input.kind === 'CHECK_IN' && !input.decidedOffline) {
      // A check-in asked for now (a tap) follows the scan's rules; one a device already made offline is a fact.
      const tap = await decideTap(tx, manifests, { participantId: input.participantId, sessionId: session.id, orderNumber: owner.order_number, occurredAt, override: input.override ?? [], locale });
      if (!tap.admit) return { ...reject(tap.message), rule: tap.rule, overridable: tap.overridable };
      if (tap.overrides.length) {
        overrides = tap.overrides;
        row.override_json = JSON.stringify({ rules: tap.overrides, by: tx.actor.name, apiKeyId: tx.actor.keyId, device: input.device ?? null });
      }
    }
    // Facts from a device are kept even when the booking was cancelled meanwhile; the manifest flags them.
    if (!isLive(owner.status)) conflict = `Booking ${owner.order_number} is ${owner.status.toLowerCase()}${owner.cancelled_at ? ` since ${new Date(owner.cancelled_at).toISOString()}` : ''}`;
  }
  if (input.kind === 'UNDO') {
    if (!input.undoesEventId) return reject('An UNDO event needs undoesEventId');
    row.undoes_event_id = input.undoesEventId;
    const target = await findUndoTarget(tx.db, input.undoesEventId);
    if (target && target.session_id !== session.id) return reject(`Event ${input.undoesEventId} belongs to session ${target.session_id}, not ${session.id}`);
    if (target?.kind === 'UNDO') return reject('An UNDO cannot undo another UNDO; check in again instead');
    row.participant_id = target?.participant_id ?? input.participantId ?? null;
  }
  const answer: RecordedEvent = { eventId: input.eventId, kind: input.kind, result: 'RECORDED', sessionId: session.id, participantId: row.participant_id, undoesEventId: row.undoes_event_id, occurredAt: input.occurredAt, conflict, ...(overrides ? { overrides } : {}) };
  row.result = 'RECORDED';
  row.answer_json = JSON.stringify(answer);
  await insertEvent(tx, row);
  return answer;
}

export type CheckinService = ReturnType<typeof createCheckin>;
