import type { TicketSize } from '../../model/routes';
import { ticketsOf } from '../../model/tickets';
import { QrCode } from '../../components/QrCode';
import { Busy, ErrorText } from '../../components/Status';
import { Link } from '../../components/Link';
import { Button } from '../../components/ui';
import { usePageTitle } from '../../components/usePageTitle';
import { useNav } from '../../store/nav';
import { useFormats } from '../../lib/formats';
import { contactsOf, usePrintData } from './usePrintData';
import { PageSize } from './PageSize';
import '../../print.css';

/**
 * A booking's tickets to print: one per person with their QR code, name, departure, pickup and the
 * company, laid out for an 80 mm receipt printer (one ticket under another, cut between) or for A4
 * (a grid, not split across pages). The paper is a choice on the page and in its URL.
 */
export function TicketsPage({ orderNumber, size }: { orderNumber: string; size: TicketSize }) {
  const { booking, company, error } = usePrintData(orderNumber);
  const replace = useNav((s) => s.replace);
  usePageTitle(`Tickets ${orderNumber}`);
  // The tickets are written in the company's format: drawn again when it arrives.
  useFormats((s) => s.formats);
  if (!booking || !company) return error ? <ErrorText error={error} /> : <Busy label="Loading the tickets…" />;
  const tickets = ticketsOf(booking);
  const uncoded = tickets.filter((t) => !t.code).length;
  return (
    <div className={`print-page tickets paper-${size}`}>
      <PageSize size={size} />
      <div className="row no-print print-tools">
        <Link to={{ name: 'booking', orderNumber }} className="btn secondary">
          ◀ Booking {orderNumber}
        </Link>
        <fieldset className="paper-choice">
          <legend>Paper</legend>
          {(['80mm', 'a4'] as const).map((s) => (
            <label key={s} className="inline">
              <input type="radio" name="paper" checked={size === s} onChange={() => replace({ name: 'tickets', orderNumber, size: s })} /> {s === '80mm' ? '80 mm receipt printer' : 'A4'}
            </label>
          ))}
        </fieldset>
        <Button onClick={() => window.print()}>Print {tickets.length === 1 ? 'the ticket' : `${tickets.length} tickets`}</Button>
      </div>
      {uncoded > 0 && <p className="no-print notice">{uncoded === tickets.length ? 'This product issues no ticket codes' : `${uncoded} of these tickets have no code`}: the tickets say so, and the guide checks these people in by name. Set the product’s ticket codes (barcodeOutputType) to issue codes for new bookings.</p>}
      <div className="ticket-sheet">
        {tickets.map((t) => (
          <article key={t.key} className="ticket" aria-label={`Ticket for ${t.name}`}>
            <header>
              <b>{company.companyName}</b>
              <span>{t.orderNumber}</span>
            </header>
            <h3>{t.name}</h3>
            <p className="ticket-tour">
              {t.productName}
              <br />
              <b>{t.departure}</b>
            </p>
            {t.pickup && <p>Pickup: {t.pickup}</p>}
            {t.code ? <QrCode orderNumber={t.orderNumber} code={t.code} label={t.name} /> : <p className="ticket-nocode">No ticket code: show this ticket and give your name.</p>}
            <footer>{contactsOf(company)}</footer>
          </article>
        ))}
      </div>
    </div>
  );
}
