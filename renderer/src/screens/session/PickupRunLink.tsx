import { Link } from '../../components/Link';
import './pickups.css';

/** Under a manifest with pickups: the list runs by stop, and the driver's run sheet is one click away. */
export function PickupRunLink({ sessionId }: { sessionId: number }) {
  return (
    <p className="mf-pickup-link">
      Grouped by pickup stop, in pickup order. <Link to={{ name: 'runsheet', sessionId }}>Pickup run sheet (printable)</Link>
    </p>
  );
}
