import type { Booking, ParticipantCheckin } from '../../api/types';
import { recordedCheckin } from '../../api/answers';
import { Card } from '../../components/ui';
import { Link } from '../../components/Link';
import { QrCode } from '../../components/QrCode';
import { ticketsOf, type Ticket } from '../../model/tickets';
import '../../booking.css';
import { amountText } from '../../model/payment';
import { formats, useFormats } from '../../lib/formats';
import type { ItemCheckins } from './useCheckins';

/** A person's check-in in words: the state, and when, by which key and on which device it was recorded. */
export function checkinWords(checkin: ParticipantCheckin | undefined): string {
  if (!checkin) return 'Check-in state not known here';
  const event = recordedCheckin(checkin);
  const who = event ? [formats().dateTime(event.atLocal), event.by && `by ${event.by}`, event.device && `on ${event.device}`].filter(Boolean).join(' ') : '';
  if (checkin.state === 'CHECKED_IN') return `Checked in ${who}`;
  if (checkin.state === 'NO_SHOW') return event ? `No-show, marked ${who}` : 'No-show (check-in closed)';
  return 'Not checked in yet';
}

const pickupOf = (tickets: Ticket[], itemIndex: number) => {
  const pickup = tickets.find((t) => t.key.startsWith(`${itemIndex}.`))?.pickup;
  return pickup ? ` · pickup ${pickup}` : '';
};

/** The booking's tours and people: each person's check-in (who and which device), their QR code, and the ways to the manifest, the scanner and the tickets. */
export function PeopleCard({ booking, checkins }: { booking: Booking; checkins: (ItemCheckins | null)[] }) {
  const { dateTime } = useFormats((s) => s.formats);
  const tickets = ticketsOf(booking);
  return (
    <Card
      title="People and tickets"
      actions={
        <Link to={{ name: 'tickets', orderNumber: booking.orderNumber, size: '80mm' }} className="btn secondary">
          Print tickets
        </Link>
      }
    >
      {booking.items.map((item, itemIndex) => {
        const found = checkins[itemIndex];
        return (
          <section key={itemIndex} className="item" aria-label={`${item.productName} ${dateTime(item.startTimeLocal)}`}>
            <div className="row spread">
              <h3>
                {item.productName} · {dateTime(item.startTimeLocal)}
              </h3>
              {found && (
                <div className="row">
                  <Link to={{ name: 'session', sessionId: found.sessionId }} className="btn secondary">
                    Open the manifest
                  </Link>
                  <Link to={{ name: 'scan', sessionId: found.sessionId }} className="btn secondary">
                    Scanner for this departure
                  </Link>
                </div>
              )}
            </div>
            <p>
              {item.quantities.map((q) => `${q.value} × ${q.optionLabel}`).join(', ')} · {amountText(item.amount, booking.totalCurrency)}
              {pickupOf(tickets, itemIndex)}
            </p>
            <ul className="people-states">
              {item.participants.map((_, i) => {
                const ticket = tickets.find((t) => t.key === `${itemIndex}.${i}`)!;
                const checkin = found?.participants.get(i)?.checkin;
                return (
                  <li key={i} className={`person-state ${checkin?.state === 'CHECKED_IN' ? 'in' : ''}`} aria-label={ticket.name}>
                    {ticket.code ? <QrCode orderNumber={booking.orderNumber} code={ticket.code} label={ticket.name} /> : <span className="qr-none">No code</span>}
                    <div>
                      <b>{ticket.name}</b>
                      <p className="checkin-words">{checkinWords(checkin)}</p>
                    </div>
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </Card>
  );
}
