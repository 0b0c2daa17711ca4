import { useEffect, useRef, useState } from 'react';
import { api, messageOf, newEventId } from '../api/client';
import type { ScanAnswer } from '../api/types';
import { useConnection } from '../store/connection';
import { useManifest } from '../store/manifest';
import { Busy, ErrorText } from './Status';

const TONE: Record<string, string> = { CHECKED_IN: 'green', READMITTED: 'green', ALREADY_CHECKED_IN: 'amber', NOT_PAID: 'amber', INCOMPLETE: 'amber' };

/** A text box a USB/Bluetooth scanner types into (code + Enter); the answer is shown big, colour-coded. */
export function ScanBox({ sessionId }: { sessionId: number }) {
  const { config, device } = useConnection();
  const reload = useManifest((s) => s.load);
  const [code, setCode] = useState('');
  const [answer, setAnswer] = useState<ScanAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // A "check-in closed" answer is over once check-in reopens: left up, it read as the state of things.
  const closed = useManifest((s) => (s.sessionId === sessionId ? s.manifest?.session.checkinClosed : undefined));
  useEffect(() => {
    if (closed === false) setAnswer((shown) => (shown?.result === 'CHECKIN_CLOSED' ? null : shown));
  }, [closed]);

  // A scanner types wherever the focus is: keystrokes outside any field go to the scan box.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1) return;
      if (target && target.closest('input, textarea, select, [contenteditable="true"]')) return;
      input.current?.focus();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  async function scan(text: string) {
    if (!config || !text.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const { scan } = await api(config, 'POST /v1/manifest/scan', { body: { code: text.trim(), sessionId, eventId: newEventId(), device: device || undefined } });
      setAnswer(scan);
      if (scan.checkedIn) void reload(sessionId);
    } catch (e) {
      setAnswer(null);
      setError(messageOf(e));
    } finally {
      setBusy(false);
      setCode('');
      input.current?.focus();
    }
  }

  const tone = answer ? (TONE[answer.result] ?? 'red') : '';
  return (
    <form
      className="scan"
      onSubmit={(e) => {
        e.preventDefault();
        void scan(code);
      }}
    >
      <label>
        Scan code
        <input ref={input} value={code} onChange={(e) => setCode(e.target.value)} placeholder="Scan or type a code, then Enter" autoFocus autoComplete="off" data-scanbox />
      </label>
      {busy && <Busy label="Checking code…" />}
      <ErrorText error={error} />
      {answer && (
        <div className={`scan-answer ${tone}`} role="status" aria-label="Scan result" data-result={answer.result}>
          <strong>{answer.result === 'CHECKIN_CLOSED' ? 'CHECK-IN CLOSED' : answer.result.replaceAll('_', ' ')}</strong>
          <span>{answer.message}</span>
          {'participants' in answer && answer.participants.length > 0 && <small>{answer.participants.map((p) => p.name ?? `#${p.position + 1}`).join(', ')}</small>}
        </div>
      )}
    </form>
  );
}
