import { bookingSchema, bookingUpdateSchema } from '../../main/contract/bookings';
import { aProduct } from '../../test/fixtures/builders';
import { DAY_MS, inParallel, syncDesk, type SeasonClock, type SeasonNode } from './world';

/** Writes waiting together on one instance: a busy office's desks and agents. */
const WIDTH = 12;

export interface SeasonPlan {
  bookings: number;
  days: number;
  /** Days at the end of the season the late desk spends offline (it still sells; it catches up after). */
  offlineDays: number;
}

export interface SeasonCounts {
  bookings: number;
  edits: number;
  cancels: number;
  checkins: number;
}

interface Day {
  index: number;
  /** "2030-01-07 17:00:00": the day's departure. */
  startTimeLocal: string;
}

const localDay = (index: number) => new Date(Date.UTC(2030, 0, 7 + index)).toISOString().slice(0, 10);

/** The catalogue on the hub: one product, one evening departure a day with room for everyone. */
async function catalogue(hub: SeasonNode, plan: SeasonPlan): Promise<{ productCode: string; days: Day[] }> {
  const product = (await hub.call('POST', '/v1/products', aProduct({ name: 'Harbour Evening Cruise' }))).product;
  const seats = Math.ceil(plan.bookings / plan.days) * 4 + 100;
  const days: Day[] = [];
  for (let index = 0; index < plan.days; index++) {
    const startTimeLocal = `${localDay(index)} 17:00:00`;
    await hub.call('POST', '/v1/availability', { productCode: product.productCode, startTimeLocal, seats });
    days.push({ index, startTimeLocal });
  }
  return { productCode: product.productCode as string, days };
}

/** A booking's body, as the route validates it: a guest of their own (name, email, phone), 1-3 adults and maybe a child. */
function bookingBody(productCode: string, day: Day, n: number) {
  return bookingSchema.parse({
    customer: { firstName: `Guest${n}`, lastName: ['Nguyen', 'Smith', 'Okafor', 'Rossi', 'Tanaka'][n % 5], email: `guest${n}@season.example`, phone: `+61 4${String(n).padStart(8, '0')}` },
    items: [{ productCode, startTimeLocal: day.startTimeLocal, quantities: [{ optionLabel: 'Adult', value: 1 + (n % 3) }, ...(n % 4 === 0 ? [{ optionLabel: 'Child', value: 1 }] : [])] }],
  });
}

/**
 * A season: each day the hub and the desks sell (half at the hub, the rest at the desks), the desks
 * sync, the first desk checks in most of the day's guests, the hub edits some bookings and the desk
 * cancels a few, and the desks sync again. The late desk goes offline for the season's last
 * `offlineDays` (it keeps selling) and is left behind. Every instance's clock moves a day a day.
 */
export async function simulateSeason(plan: SeasonPlan, clock: SeasonClock, hub: SeasonNode, desk: SeasonNode, late: SeasonNode, say: (line: string) => void): Promise<SeasonCounts> {
  const { productCode, days } = await catalogue(hub, plan);
  await syncDesk(desk);
  await syncDesk(late);
  const counts: SeasonCounts = { bookings: 0, edits: 0, cancels: 0, checkins: 0 };
  const perDay = Math.ceil(plan.bookings / plan.days);
  for (const day of days) {
    const lateOnline = day.index < plan.days - plan.offlineDays;
    const sellers = [hub, hub, hub, hub, hub, desk, desk, desk, late, late];
    const sales = Array.from({ length: Math.min(perDay, plan.bookings - counts.bookings) }, (_, i) => counts.bookings + i);
    const sold: { at: SeasonNode; orderNumber: string; n: number }[] = [];
    // Each seller's bookings run WIDTH at a time, the three instances side by side.
    await Promise.all(
      [hub, desk, late].map((node) =>
        inParallel(
          sales.filter((n) => sellers[n % 10] === node),
          WIDTH,
          async (n) => sold.push({ at: node, n, orderNumber: (await node.engine.bookings.create(bookingBody(productCode, day, n), node.actor)).booking.orderNumber }),
        ),
      ),
    );
    counts.bookings += sales.length;
    await syncDesk(desk);
    if (lateOnline) await syncDesk(late);
    // What the first desk holds now: everything but the late desk's sales while it is offline.
    const known = sold.filter((s) => lateOnline || s.at !== late);
    const session = { productCode, startTimeLocal: day.startTimeLocal };
    const checkins = known.filter((s) => s.n % 10 < 6);
    const edits = known.filter((s) => s.n % 10 === 6);
    const cancels = known.filter((s) => s.n % 20 === 7);
    await Promise.all([
      inParallel(checkins, WIDTH, (s) => desk.engine.checkin.checkInOrder(desk.actor, s.orderNumber, session)),
      inParallel(edits, WIDTH, (s) => hub.engine.bookings.update(s.orderNumber, bookingUpdateSchema.parse({ resellerReference: `AGENT-${s.n}` }), hub.actor)),
      inParallel(cancels, WIDTH, (s) => desk.engine.bookings.cancel(s.orderNumber, desk.actor)),
    ]);
    counts.checkins += checkins.length;
    counts.edits += edits.length;
    counts.cancels += cancels.length;
    await syncDesk(desk);
    if (lateOnline) await syncDesk(late);
    if (day.index % 10 === 9) say(`season: day ${day.index + 1} of ${plan.days}, ${counts.bookings} bookings`);
    clock.advance(DAY_MS);
  }
  return counts;
}
