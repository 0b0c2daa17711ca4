import type { Booking } from '../api/types';

/** One person's ticket as printed: who, on what and when, where they are picked up, and the code a scanner takes. */
export interface Ticket {
  key: string;
  name: string;
  orderNumber: string;
  productName: string;
  /** "2030-01-02 09:00" in the company's zone, as the booking answers it. */
  departureLocal: string;
  pickup: string | null;
  /** The participant's code, else the item's or the order's (every one of them checks this person in); null when the product issues none. */
  code: string | null;
}

const nameOf = (p: Booking['items'][number]['participants'][number], i: number) => p.fields.find((f) => /name/i.test(f.label ?? ''))?.value?.trim() || `Participant ${i + 1}`;

/** Every participant's ticket, item by item, in booking order. */
export function ticketsOf(booking: Booking): Ticket[] {
  return booking.items.flatMap((item, itemIndex) =>
    item.participants.map((p, i) => ({
      key: `${itemIndex}.${i}`,
      name: nameOf(p, i),
      orderNumber: booking.orderNumber,
      productName: item.productName,
      departureLocal: item.startTimeLocal.slice(0, 16),
      pickup: item.pickupLocation?.locationName ? `${item.pickupLocation.locationName}${item.pickupLocation.pickupTime ? ` at ${item.pickupLocation.pickupTime.slice(11, 16)}` : ''}` : null,
      code: p.barcode ?? item.barcode ?? booking.barcode ?? null,
    })),
  );
}
