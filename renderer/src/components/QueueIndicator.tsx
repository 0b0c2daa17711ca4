import { useOutbox } from '../store/outbox';

/** "N waiting to send": what this device did while the engine was unreachable. */
export function QueueIndicator() {
  const { items, sending, problem, flush } = useOutbox();
  if (items.length === 0) return problem ? <span role="alert" className="queue error">{problem}</span> : null;
  return (
    <span className="queue waiting" role="status" aria-label="Offline queue">
      {items.length} waiting to send{problem ? ` (${problem})` : ''}
      <button type="button" className="small" onClick={() => void flush()} disabled={sending}>
        {sending ? 'Sending…' : 'Retry now'}
      </button>
    </span>
  );
}
