import type { Booking } from '../api/types';
import { formats, participantLabel } from '../lib/formats';

/** One person's ticket as printed: who, on what and when, where they are picked up, and the code a scanner takes. */
export interface Ticket {
  key: string;
  name: string;
  orderNumber: string;
  productName: string;
  /** "Wed 2 Jan 2030, 9:00 am": the departure in the company's format (the booking answers it in the company's zone). */
  departure: string;
  pickup: string | null;
  /** The participant's code, else the item's or the order's (every one of them checks this person in); null when the product issues none. */
  code: string | null;
}

const nameOf = (p: Booking['items'][number]['participants'][number], i: number) => participantLabel({ name: p.fields.find((f) => /name/i.test(f.label ?? ''))?.value, position: i });

/** Every participant's ticket, item by item, in booking order. */
export function ticketsOf(booking: Booking): Ticket[] {
  return booking.items.flatMap((item, itemIndex) =>
    item.participants.map((p, i) => ({
      key: `${itemIndex}.${i}`,
      name: nameOf(p, i),
      orderNumber: booking.orderNumber,
      productName: item.productName,
      departure: formats().dateTime(item.startTimeLocal),
      pickup: item.pickupLocation?.locationName ? `${item.pickupLocation.locationName}${item.pickupLocation.pickupTime ? ` at ${formats().time(item.pickupLocation.pickupTime)}` : ''}` : null,
      code: p.barcode ?? item.barcode ?? booking.barcode ?? null,
    })),
  );
}
