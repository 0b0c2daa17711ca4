import { useQueue } from '../store/queue';

/** "N waiting to send": check-in events made while the engine was unreachable. */
export function QueueIndicator() {
  const { queue, sending, problem, flush } = useQueue();
  if (queue.length === 0) return problem ? <span role="alert" className="queue error">{problem}</span> : null;
  return (
    <span className="queue waiting" role="status" aria-label="Offline queue">
      {queue.length} waiting to send{problem ? ` (${problem})` : ''}
      <button type="button" className="small" onClick={() => void flush()} disabled={sending}>
        {sending ? 'Sending…' : 'Retry now'}
      </button>
    </span>
  );
}
