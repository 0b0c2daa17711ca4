import { DateTime } from 'luxon';
import { loadSessionRows } from '../../../db/queries/manifest';
import { sessionsStartingBetween } from '../../../db/queries/departures';
import { nationalDigits, phoneSearchDigits } from '../../../db/queries/search';
import type { CustomersTable, ParticipantsTable, SessionsTable } from '../../../db/schema';
import type { EngineContext } from '../context';
import type { CompaniesService } from '../platform/companies';
import { deriveCheckinState } from './state';
import { DomainError } from '../errors';
import { bookingView, customerView, historyView, parseFields, participantName, participantView, toEvent, type ViewContext } from './manifestView';
import type { ManifestSessionRef, ManifestsService } from './manifests';
import { itemIdsByOrder } from './manifestAssembly';
import type { MatchedOn, SearchHit } from '../../contract/manifest';
import { attentionOf, missingFieldsOf, requiredParticipantLabels } from './scanRules';
import { toIso, toLocal } from '../time';

export interface ManifestSearchInput extends ManifestSessionRef {
  q: string;
  limit: number;
  offset: number;
}

export type { MatchedOn } from '../../contract/manifest';

/** Lower case without accents, so "jose" finds "José". */
const fold = (text: string | null | undefined) => (text ?? '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
const digits = (text: string | null | undefined) => (text ?? '').replace(/\D/g, '');

/** A hit with its session's start, to order hits across sessions (not answered). */
type SessionMatch = SearchHit & { startAt: number };

interface SearchQuery {
  wanted: string;
  wantedDigits: string;
}

function searchQuery(q: string): SearchQuery {
  // Only a query that looks like a phone number searches phones, as the bookings search takes it.
  return { wanted: fold(q), wantedDigits: phoneSearchDigits(q) };
}

/** What of a booking the query matches, and which of its participants by name. */
function matchBooking({ wanted, wantedDigits }: SearchQuery, orderNumber: string, customerRow: CustomersTable | undefined, participants: readonly ParticipantsTable[]) {
  const customer = customerView(customerRow);
  const matchedOn: MatchedOn[] = [];
  if (fold(orderNumber).includes(wanted)) matchedOn.push('ORDER_NUMBER');
  if ([customer.name, customer.firstName, customer.lastName].some((name) => name && fold(name).includes(wanted))) matchedOn.push('CUSTOMER_NAME');
  const national = nationalDigits(wantedDigits);
  if (wantedDigits.length >= 3 && [customerRow?.phone, customerRow?.mobile].some((phone) => digits(phone).includes(national))) matchedOn.push('PHONE');
  const matchedParticipants = participants.filter((p) => fold(participantName(parseFields(p.fields_json))).includes(wanted));
  if (matchedParticipants.length) matchedOn.push('PARTICIPANT_NAME');
  return { matchedOn, matchedParticipants };
}

/**
 * "When a code will not scan": finds bookings of a session (or of today's sessions) by participant
 * name, customer name, order number or phone, and answers each with the context a scan gives.
 */
export function createManifestSearch(ctx: EngineContext, deps: { manifests: ManifestsService; companies: CompaniesService }) {
  async function todaysSessions(): Promise<SessionsTable[]> {
    const zone = (await deps.companies.supplier()).timezone;
    const start = DateTime.fromMillis(ctx.clock.now().getTime(), { zone }).startOf('day');
    return sessionsStartingBetween(ctx.db, start.toMillis(), start.plus({ days: 1 }).toMillis());
  }

  async function searchSession(sessionId: number, q: string, keyNames: Map<number, string>): Promise<SessionMatch[]> {
    const resolved = await deps.manifests.resolveSession(ctx.db, { sessionId });
    const { session, product, timezone } = resolved;
    const rows = await loadSessionRows(ctx.db, session.id);
    const derived = deriveCheckinState(rows.events.map(toEvent));
    const view: ViewContext = { timezone, keyNames };
    const required = requiredParticipantLabels(product);
    const query = searchQuery(q);
    const matches: SessionMatch[] = [];
    for (const [orderNumber, itemIds] of itemIdsByOrder(rows)) {
      const booking = rows.bookings.get(orderNumber)!;
      if (booking.status === 'ABANDONED_CART') continue;
      const participants = itemIds.flatMap((id) => rows.participantsByItem.get(id) ?? []);
      const customerRow = booking.customer_id !== null ? rows.customers.get(booking.customer_id) : undefined;
      const { matchedOn, matchedParticipants } = matchBooking(query, orderNumber, customerRow, participants);
      if (matchedOn.length === 0) continue;
      const context = bookingView(orderNumber, rows, itemIds);
      matches.push({
        session: { id: session.id, productCode: product.product_code, productName: product.name, startTime: toIso(session.start_at), startTimeLocal: toLocal(session.start_at, timezone), checkinClosed: derived.closed },
        matchedOn,
        matchedParticipantIds: matchedParticipants.map((p) => p.id),
        ...attentionOf(context.attentionReasons, participants, required),
        booking: context,
        participants: participants.map((p) => ({
          ...participantView(p, derived, view),
          missingFields: missingFieldsOf(p, required),
          history: historyView(rows.events.filter((e) => e.participant_id === p.id), view),
        })),
        startAt: session.start_at,
      });
    }
    return matches;
  }

  return {
    async search(input: ManifestSearchInput): Promise<SearchHit[]> {
      const q = input.q.trim();
      if (q.length < 2) throw new DomainError('VALIDATION_ERROR', 'q: search with at least 2 characters (a name, an order number or a phone number)');
      const named = input.sessionId !== undefined || input.productCode !== undefined || input.startTime !== undefined || input.startTimeLocal !== undefined;
      const sessionIds = named ? [(await deps.manifests.resolveSession(ctx.db, input)).session.id] : (await todaysSessions()).map((s) => s.id);
      const keyNames = await deps.manifests.keyNames(ctx.db);
      const matches: SessionMatch[] = [];
      for (const sessionId of sessionIds) matches.push(...(await searchSession(sessionId, q, keyNames)));
      matches.sort((a, b) => a.startAt - b.startAt || a.session.productCode.localeCompare(b.session.productCode) || a.booking.orderNumber.localeCompare(b.booking.orderNumber));
      return matches.slice(input.offset, input.offset + input.limit).map(({ startAt: _s, ...match }) => match);
    },
  };
}

export type ManifestSearchService = ReturnType<typeof createManifestSearch>;
