import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { Database, SessionsTable } from '../../../db/schema';
import { apiKeyNames, loadSessionEvents, loadSessionRows } from '../../../db/queries/manifest';
import { seatsHeldBySession } from '../../../db/queries/seats';
import { findSessionById, resourcesOfSession, sessionsStartingBetween, supplierTimezone } from '../../../db/queries/departures';
import { liveParticipantIdsOf } from '../../../db/queries/checkinBookings';
import { manifestFingerprint } from '../../../db/queries/manifestVersion';
import { pickupSeatCount } from '../../../db/queries/boardCounts';
import type { EngineContext } from '../context';
import type { CompaniesService } from '../platform/companies';
import type { ProductsService } from '../catalogue/products';
import { countStates, deriveCheckinState } from './state';
import { DomainError } from '../errors';
import { toEvent, type ViewContext } from './manifestView';
import { assembleManifest, sessionView, type ResolvedSession } from './manifestAssembly';
import { oversoldBySession } from './oversold';
import type { DayBoardSession, Manifest, ManifestVersion } from '../../contract/manifest';
import { findSession } from '../availability/sessionRef';
import { localDate, parseTimeParam, toIso } from '../time';
import { areaChangeTokenOf, changeTokenOf, readsInTransaction } from '../../../db/queries/changes';
import { sharedAnswer } from '../sharedAnswers';

/** How the manifest operations name a session: its id, or productCode + startTime/startTimeLocal. */
export interface ManifestSessionRef {
  sessionId?: number;
  productCode?: string;
  startTime?: string;
  startTimeLocal?: string;
}

export interface ManifestDeps {
  products: ProductsService;
  companies: CompaniesService;
}

/** Manifests kept for polling (a desk's sessions of the day). */
const MANIFESTS_CACHED = 20;

export function createManifests(ctx: EngineContext, deps: ManifestDeps) {
  const changes = areaChangeTokenOf(ctx.handle);
  const databaseToken = changeTokenOf(ctx.handle);
  const manifests = new Map<string, { token: string; manifest: Manifest }>();
  let names: { token: string; byId: Map<number, string> } | null = null;

  /**
   * Every key's name, for histories ("by Pier tablet"), kept while no key changed. Read through the
   * given db (a transaction's own); only a read outside any transaction is kept, since a transaction
   * that renames a key and then rolls back would leave its name behind.
   */
  async function keyNames(db: Kysely<Database>): Promise<Map<number, string>> {
    const token = changes('keys');
    if (names?.token === token) return names.byId;
    const byId = await apiKeyNames(db);
    if (!readsInTransaction(ctx.handle, db)) names = { token, byId };
    return byId;
  }

  /** The product's timezone, read through the given db (a transaction must not wait on the engine's connection). */
  async function timezoneOf(db: Kysely<Database>, productCode: string): Promise<string> {
    const product = await deps.products.rowOrThrow(db, productCode);
    return product.timezone || supplierTimezoneOrThrow(db);
  }

  async function supplierTimezoneOrThrow(db: Kysely<Database>): Promise<string> {
    const timezone = await supplierTimezone(db);
    if (timezone === undefined) throw new DomainError('NOT_FOUND', 'No supplier company is configured yet');
    return timezone;
  }

  /** Any time form parseTimeParam accepts, then findSession on the exact instant. */
  async function resolveSession(db: Kysely<Database>, ref: ManifestSessionRef): Promise<ResolvedSession> {
    let session: SessionsTable | undefined;
    if (ref.sessionId !== undefined) {
      session = await findSessionById(db, ref.sessionId);
      if (!session) throw new DomainError('NOT_FOUND', `Session ${ref.sessionId} was not found`);
    } else {
      if (!ref.productCode) throw new DomainError('VALIDATION_ERROR', 'Name the session with sessionId, or productCode and startTime or startTimeLocal');
      const timezone = await timezoneOf(db, ref.productCode);
      const raw = ref.startTime ?? ref.startTimeLocal;
      if (!raw) throw new DomainError('VALIDATION_ERROR', 'Name the session with startTime or startTimeLocal');
      const at = parseTimeParam(raw, timezone, 'lower', ref.startTime ? 'startTime' : 'startTimeLocal');
      session = await findSession(db, { productCode: ref.productCode, startTime: toIso(at) }, timezone).catch((error) => {
        if (error instanceof DomainError && error.code === 'NOT_FOUND') {
          throw new DomainError('NOT_FOUND', `Product ${ref.productCode} has no session starting at ${raw}`);
        }
        throw error;
      });
    }
    const product = await deps.products.rowOrThrow(db, session.product_code);
    return { session, product, timezone: product.timezone || (await supplierTimezoneOrThrow(db)) };
  }

  async function build(ref: ManifestSessionRef): Promise<Manifest> {
    const resolved = await resolveSession(ctx.db, ref);
    const sessionId = resolved.session.id;
    // Read first: a write landing while the manifest is read moves the version past this one, so a poll fetches again.
    const version = await manifestFingerprint(ctx.db, sessionId);
    const rows = await loadSessionRows(ctx.db, sessionId);
    const derived = deriveCheckinState(rows.events.map(toEvent));
    const view: ViewContext = { timezone: resolved.timezone, keyNames: await keyNames(ctx.db), locale: (await deps.companies.supplierOrNull())?.locale ?? null };
    const seatsHeld = (await seatsHeldBySession(ctx.db, [sessionId])).get(sessionId) ?? 0;
    const resources = await resourcesOfSession(ctx.db, sessionId);
    const oversold = (await oversoldBySession(ctx.db, [sessionId])).get(sessionId) ?? null;
    return { ...assembleManifest({ resolved, rows, derived, view, seatsHeld, resources, oversold }), version };
  }

  return {
    resolveSession,
    timezoneOf,
    keyNames,

    /**
     * A manifest is reused while the database did not change at all (no write on this connection,
     * no commit by another process): desks and phones poll it, and between two scans they all get
     * the one built after the last change. Kept only when no write landed while it was read.
     * A kept manifest is a shared answer (frozen; the API serializes it once, main/api/answer.ts):
     * a poll between two changes sends bytes made once instead of serializing 1,000 participants.
     */
    async get(ref: ManifestSessionRef): Promise<Manifest> {
      const key = JSON.stringify([ref.sessionId, ref.productCode, ref.startTime, ref.startTimeLocal]);
      const token = databaseToken();
      const known = manifests.get(key);
      if (known && known.token === token) return known.manifest;
      const manifest = await build(ref);
      if (databaseToken() === token) {
        if (manifests.size >= MANIFESTS_CACHED) manifests.clear();
        manifests.set(key, { token, manifest: sharedAnswer(manifest) });
      }
      return manifest;
    },

    /** The session's manifest fingerprint: a handful of aggregates, for clients that poll for changes. */
    async version(ref: ManifestSessionRef): Promise<ManifestVersion> {
      const { session } = await resolveSession(ctx.db, ref);
      return { sessionId: session.id, version: await manifestFingerprint(ctx.db, session.id) };
    },

    /** A session counts as checked in when it has at least one live participant and all of them are checked in. */
    async isSessionCheckedIn(ref: ManifestSessionRef): Promise<boolean> {
      const { totals } = await build(ref);
      return totals.booked > 0 && totals.checkedIn === totals.booked;
    },

    /** The day's sessions of every product with their counts, ordered by start. */
    async day(date: string | undefined, paging: { limit: number; offset: number }): Promise<DayBoardSession[]> {
      const company = await deps.companies.supplier();
      const zone = company.timezone;
      const day = date ?? localDate(ctx.clock.now().getTime(), zone);
      const from = parseTimeParam(day, zone, 'lower', 'date');
      const to = DateTime.fromMillis(from, { zone }).startOf('day').plus({ days: 1 }).toMillis();
      const start = DateTime.fromMillis(from, { zone }).startOf('day').toMillis();
      const sessions = await sessionsStartingBetween(ctx.db, start, to, paging);
      const held = await seatsHeldBySession(ctx.db, sessions.map((s) => s.id));
      const oversold = await oversoldBySession(ctx.db, sessions.map((s) => s.id));
      const out: DayBoardSession[] = [];
      for (const session of sessions) {
        const product = await deps.products.rowOrThrow(ctx.db, session.product_code);
        const timezone = await timezoneOf(ctx.db, session.product_code);
        const participantIds = await liveParticipantIdsOf(ctx.db, session.id);
        const events = await loadSessionEvents(ctx.db, session.id);
        const derived = deriveCheckinState(events.map(toEvent));
        const resources = (await resourcesOfSession(ctx.db, session.id)).map((r) => ({ id: r.id, name: r.name }));
        out.push({ ...sessionView({ session, product, timezone }, held.get(session.id) ?? 0, derived.closed, oversold.get(session.id) ?? null), ...countStates(derived, participantIds), resources, pickupCount: await pickupSeatCount(ctx.db, session.id) });
      }
      return out;
    },
  };
}

export type ManifestsService = ReturnType<typeof createManifests>;
export type { Manifest } from '../../contract/manifest';
export type { ResolvedSession } from './manifestAssembly';
