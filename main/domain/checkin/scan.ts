import { findEventAnswer } from '../../../db/queries/checkinEvents';
import { itemsOfOrder } from '../../../db/queries/checkinBookings';
import type { ScanAnswer, UnknownCodeScan } from '../../contract/manifest';
import type { Actor, EngineContext, Tx } from '../context';
import { DomainError } from '../errors';
import type { ManifestsService } from './manifests';
import { pickItem, resolveCode } from './scanCodes';
import { ScanRecord, type ScanInput } from './scanRecord';
import { scanScheduled } from './scanScheduled';
import { scanUnscheduled } from './scanUnscheduled';
import { fromIso } from '../time';
import type { CompaniesService } from '../platform/companies';

export { SCAN_RESULTS, type ScanResult } from './scanRules';
export type { ScanInput } from './scanRecord';

export function createScanner(ctx: EngineContext, deps: { manifests: ManifestsService; companies: Pick<CompaniesService, 'supplierOrNull'> }) {
  /** Resolves the code, then answers it for its scheduled session or, without one, as the booking's context alone. */
  async function scanIn(tx: Tx, input: ScanInput, eventId: string, locale: string | null): Promise<ScanAnswer> {
    const occurredAt = input.occurredAt ? fromIso(input.occurredAt, 'occurredAt') : tx.now;
    const scan = new ScanRecord(tx, input, eventId, occurredAt);
    const resolved = await resolveCode(tx.db, input.code);
    if (!resolved) {
      const answer: UnknownCodeScan = { eventId, result: 'UNKNOWN_CODE', checkedIn: false, code: input.code, message: 'Unknown code: no booking has this code. Check the code, or find the booking by name or order number on the manifest.' };
      return scan.store(answer);
    }
    const item = pickItem(await itemsOfOrder(tx.db, resolved.orderNumber), resolved, input.sessionId, occurredAt);
    if (!item || item.session_id === null) return scanUnscheduled(tx, deps.manifests, scan, resolved);
    return scanScheduled(tx, deps.manifests, scan, resolved, item.session_id, locale);
  }

  return {
    /**
     * Resolves a participant or order code and checks it in, answering the decision, a sentence
     * to read aloud and the booking context. Every scan is stored as a SCAN event (refused ones
     * too); a resent eventId answers its first answer and changes nothing.
     */
    async scan(actor: Actor, input: ScanInput): Promise<ScanAnswer> {
      // Read before the write lock, where it can be kept for the next scans (answered from memory inside).
      // The company's locale too (kept while the company does not change): its answer words times as the locale reads them.
      await deps.manifests.keyNames(ctx.db);
      const locale = (await deps.companies.supplierOrNull())?.locale ?? null;
      return ctx.write(actor, async (tx) => {
        if (input.eventId) {
          const existing = await findEventAnswer(tx.db, input.eventId);
          if (existing?.kind === 'SCAN' && existing.answer_json) return JSON.parse(existing.answer_json) as ScanAnswer;
          if (existing) throw new DomainError('DUPLICATE', `eventId ${input.eventId} was already used for a ${existing.kind} event`);
        }
        return scanIn(tx, input, input.eventId ?? `td-${ctx.ids.nextId()}`, locale);
      });
    },
  };
}

export type ScannerService = ReturnType<typeof createScanner>;
