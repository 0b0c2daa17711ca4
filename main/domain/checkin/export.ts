import type { Manifest } from '../../contract/manifest';
import { formatsFor, participantLabel, seatsLeft, type FormatSettings } from '../format';

/** Printable and spreadsheet forms of a manifest (pure: the routes wrap them in RawResponse). */

/** RFC 4180 quoting: a field with a comma, quote, CR or LF is quoted and its quotes doubled. */
export function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const CSV_COLUMNS = ['Order', 'Status', 'Customer', 'Phone', 'Participant', 'Options', 'Pickup', 'Paid', 'Due', 'Currency', 'Check-in', 'Checked in at', 'Notes'];

const optionsText = (booking: Manifest['bookings'][number]) => booking.quantities.map((q) => `${q.value} ${q.optionLabel}`).join(', ');
const notesText = (booking: Manifest['bookings'][number]) =>
  [booking.notes.internalNotes, booking.notes.comments, booking.notes.resellerComments].filter(Boolean).join(' | ');

/**
 * One row per participant, UTF-8 with a BOM so spreadsheet programs read accents right; CRLF line ends.
 * Times are written as the company's screens write them; amounts stay plain numbers (with the
 * Currency column) so a spreadsheet can add them up.
 */
export function manifestCsv(manifest: Manifest, company: FormatSettings): string {
  const formats = formatsFor(company);
  const lines = [CSV_COLUMNS.map(csvField).join(',')];
  for (const booking of manifest.bookings) {
    for (const participant of booking.participants) {
      lines.push(
        [
          booking.orderNumber,
          booking.status,
          booking.customer.name,
          booking.customer.phone,
          participantLabel(participant),
          optionsText(booking),
          booking.pickup?.locationName ?? '',
          booking.payment.totalPaid,
          booking.payment.totalDue,
          booking.payment.totalCurrency,
          participant.checkin.state,
          'atLocal' in participant.checkin ? formats.dateTime(participant.checkin.atLocal) : '',
          notesText(booking),
        ]
          .map(csvField)
          .join(','),
      );
    }
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

export function escapeHtml(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Seats as availability counts them; an oversold session says by how many ("2 over"), as every screen does. */
export function seatsLine(session: Manifest['session']): string {
  return `${session.seats} seats: ${session.seatsBooked} booked, ${seatsLeft(session.seatsAvailable, 'available')}`;
}

/** A page a guide prints: one line per participant with a box to tick, and the totals. */
export function manifestHtml(manifest: Manifest, company: FormatSettings): string {
  const { session, totals } = manifest;
  const formats = formatsFor(company);
  const when = `${formats.dateTime(session.startTimeLocal)} to ${session.endTimeLocal.slice(0, 10) === session.startTimeLocal.slice(0, 10) ? formats.time(session.endTimeLocal) : formats.dateTime(session.endTimeLocal)}`;
  const rows = manifest.bookings
    .flatMap((booking) =>
      booking.participants.map(
        (p) => `<tr><td class="box">${p.checkin.state === 'CHECKED_IN' ? '&#9745;' : '&#9744;'}</td><td>${escapeHtml(booking.orderNumber)}</td><td>${escapeHtml(participantLabel(p))}</td><td>${escapeHtml(booking.customer.phone)}</td><td>${escapeHtml(optionsText(booking))}</td><td>${escapeHtml(booking.pickup?.locationName)}</td><td>${booking.payment.paid ? 'paid' : `due ${escapeHtml(formats.money(booking.payment.totalDue, booking.payment.totalCurrency))}`}</td><td>${escapeHtml(notesText(booking))}</td></tr>`,
      ),
    )
    .join('\n');
  const pickups = manifest.pickupTotals.map((p) => `<li>${escapeHtml(p.locationName ?? 'No pickup')}: ${p.booked} booked, ${p.checkedIn} checked in</li>`).join('');
  return `<!doctype html>
<html lang="${escapeHtml(formats.locale)}"><head><meta charset="utf-8"><title>Manifest ${escapeHtml(session.productName)} ${escapeHtml(formats.dateTime(session.startTimeLocal))}</title>
<style>
body{font:12px/1.4 system-ui,sans-serif;margin:16px}table{border-collapse:collapse;width:100%}th,td{border:1px solid #999;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#eee}.box{width:24px;text-align:center;font-size:16px}h1{font-size:18px;margin:0 0 4px}
@media print{body{margin:0}th{background:none}tr{page-break-inside:avoid}@page{margin:12mm}}
</style></head><body>
<h1>${escapeHtml(session.productName)} (${escapeHtml(session.productCode)})</h1>
<p>${escapeHtml(when)} · ${seatsLine(session)}</p>
<table><thead><tr><th class="box">&#10003;</th><th>Order</th><th>Name</th><th>Phone</th><th>Options</th><th>Pickup</th><th>Payment</th><th>Notes</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<p class="totals">People: ${totals.booked} · Checked in: ${totals.checkedIn} · No-show: ${totals.noShow} · Remaining: ${totals.remaining}</p>
<ul>${pickups}</ul>
</body></html>
`;
}
