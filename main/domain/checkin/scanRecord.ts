import type { CheckinEventsTable } from '../../../db/schema';
import type { ScanAnswer } from '../../contract/manifest';
import type { Tx } from '../context';
import { answerWithText } from '../sharedAnswers';
import { blankEvent, insertEvent, signedEvent, type NewEventRow } from './events';

export interface ScanInput {
  code: string;
  sessionId?: number;
  eventId?: string;
  occurredAt?: string;
  device?: string;
  override?: boolean;
  participantIds?: number[];
  /** The day (YYYY-MM-DD, local) whose departures the scan is for: another day's booking is a wrong session. */
  day?: string;
}

/** One scan being answered: its SCAN row (filled in as the code resolves) and how it is stored with its answer. */
export class ScanRecord {
  readonly row: NewEventRow;

  constructor(
    private readonly tx: Tx,
    readonly input: ScanInput,
    readonly eventId: string,
    readonly occurredAt: number,
  ) {
    this.row = { ...blankEvent(eventId, 'SCAN', occurredAt), code: input.code, device: input.device ?? null, session_id: input.sessionId ?? null };
  }

  /** The SCAN row as it will be stored with `result`: part of the history its own answer shows. */
  stored(result: string): CheckinEventsTable {
    return signedEvent(this.tx, { ...this.row, result });
  }

  /**
   * Stores the SCAN row with its answer (a resend answers it again), then the check-ins it made.
   * The answer goes out as the text stored (answerWithText), serialized once.
   */
  async store<A extends ScanAnswer>(answer: A, children: NewEventRow[] = []): Promise<A> {
    const text = JSON.stringify(answer);
    await insertEvent(this.tx, { ...this.row, result: String(answer.result), answer_json: text });
    for (const child of children) await insertEvent(this.tx, child);
    return answerWithText(answer, text);
  }
}
