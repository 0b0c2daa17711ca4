import { useState } from 'react';
import type { Manifest } from '../../api/types';
import { useManifest } from '../../store/manifest';
import { useNav } from '../../store/nav';
import { mayBook, useInstance } from '../../store/instance';
import { timeOf } from '../../components/Status';
import { dayInWords } from '../../components/BoardDate';
import { ConfirmDialog } from '../../components/ui';
import { closeCheckinQuestion } from '../boardState';

/** The manifest's head: back to the board, which departure this is, and what the desk can do with it. */
export function SessionHeader({ session, sessionId, remaining }: { session: Manifest['session'] | undefined; sessionId: number; remaining: number }) {
  const go = useNav((s) => s.go);
  return (
    <div className="mf-head">
      <button type="button" className="secondary mf-back" onClick={() => go({ name: 'board' })} aria-label="Back to departures">
        ◀ <span className="mf-wide">Departures</span>
      </button>
      {session && (
        <h2 id="session-title">
          {timeOf(session.startTimeLocal)} {session.productName}{' '}
          <small>
            {dayInWords(session.startTimeLocal.slice(0, 10))} · {session.productCode}
          </small>
          {session.checkinClosed && <span className="mf-badge closed">■ Check-in closed</span>}
        </h2>
      )}
      {session && <SessionActions session={session} sessionId={sessionId} remaining={remaining} />}
    </div>
  );
}

/** Scanner, walk-up sale (for a key that may book) and closing or reopening check-in. */
function SessionActions({ session, sessionId, remaining }: { session: Manifest['session']; sessionId: number; remaining: number }) {
  const go = useNav((s) => s.go);
  const record = useManifest((s) => s.record);
  const mayBookHere = useInstance((state) => mayBook(state.instance?.key.role));
  // The question is worded when it is asked ("It leaves in 2 hours" is true at that moment).
  const [closeQuestion, setCloseQuestion] = useState<string | null>(null);
  return (
    <div className="mf-head-actions">
      <button type="button" className="secondary" onClick={() => go({ name: 'scan', sessionId })}>
        Open scanner
      </button>
      {mayBookHere && (
        <button type="button" className="secondary" onClick={() => go({ name: 'walkup', sessionId })}>
          Walk-up booking
        </button>
      )}
      {session.checkinClosed ? (
        <button type="button" className="secondary" onClick={() => void record([{ kind: 'REOPEN' }])}>
          Reopen check-in
        </button>
      ) : (
        <button type="button" className="danger" onClick={() => setCloseQuestion(closeCheckinQuestion(session, remaining, Date.now()))}>
          Close check-in
        </button>
      )}
      <ConfirmDialog
        open={closeQuestion !== null}
        title="Close check-in?"
        confirmLabel="Close check-in"
        cancelLabel="Keep it open"
        onConfirm={() => (setCloseQuestion(null), void record([{ kind: 'CLOSE' }]))}
        onClose={() => setCloseQuestion(null)}
      >
        <p>{closeQuestion}</p>
      </ConfirmDialog>
    </div>
  );
}
