import type { Engine } from './engine';
import type { ProductBody } from './api/schemas/products';
import { DateTime } from 'luxon';
import { SYSTEM_ACTOR } from './domain/context';

const lorem =
  'Meet your guide at the harbour kiosk fifteen minutes before departure. The tour runs in all weathers; bring a jacket, water and a camera. Children must be accompanied by an adult.';

/** A realistic small operator, for a first look at every screen and endpoint. */
export const DEMO_PRODUCTS: ProductBody[] = [
  {
    name: 'Harbour Sunset Cruise',
    productType: 'ACTIVITY',
    bookingMode: 'INVENTORY',
    confirmMode: 'AUTOCONFIRM',
    shortDescription: 'Two hours on the harbour as the sun goes down.',
    description: lorem,
    durationMinutes: 120,
    barcodeOutputType: 'PARTICIPANT',
    qrCodeType: 'INTERNAL',
    priceOptions: [
      { label: 'Adult', price: 89, seatsUsed: 1 },
      { label: 'Child', price: 45, seatsUsed: 1 },
      { label: 'Family (2+2)', price: 240, seatsUsed: 4, priceGroupType: 'TOTAL' },
    ],
  },
  {
    name: 'Rainforest Day Tour',
    productType: 'DAYTOUR',
    bookingMode: 'INVENTORY',
    confirmMode: 'MANUAL_THEN_AUTO',
    confirmModeMinParticipants: 2,
    shortDescription: 'A full day in the rainforest with lunch and a swim stop.',
    description: lorem,
    durationMinutes: 540,
    quantityRequiredMin: 1,
    quantityRequiredMax: 12,
    barcodeOutputType: 'ORDER',
    qrCodeType: 'INTERNAL',
    priceOptions: [
      { label: 'Adult', price: 159 },
      { label: 'Senior', price: 139 },
    ],
  },
  {
    name: 'Private Reef Charter',
    productType: 'CHARTER',
    bookingMode: 'INVENTORY',
    confirmMode: 'MANUAL',
    charter: true,
    shortDescription: 'The whole boat for your group, skipper included.',
    description: lorem,
    durationMinutes: 240,
    priceOptions: [{ label: 'Boat (up to 10)', price: 1800, priceGroupType: 'TOTAL', seatsUsed: 10 }],
  },
  {
    name: 'City Museum Pass',
    productType: 'TICKET',
    bookingMode: 'NO_DATE',
    confirmMode: 'AUTOCONFIRM',
    shortDescription: 'Entry to three city museums, valid any day.',
    description: lorem,
    priceOptions: [
      { label: 'Adult', price: 35 },
      { label: 'Student', price: 20 },
    ],
  },
  {
    name: 'Gift Card',
    productType: 'GIFT_CARD',
    bookingMode: 'NO_DATE',
    confirmMode: 'AUTOCONFIRM',
    shortDescription: 'A gift card for any of our tours and cruises.',
    description: lorem,
    priceOptions: [{ label: 'Gift card 100', price: 100 }],
  },
];

export async function loadDemo(engine: Engine): Promise<void> {
  await engine.companies.configure({
    companyName: 'Bluewater Tours',
    alias: 'bluewater',
    description: 'Harbour cruises, reef charters and rainforest tours since 1998.',
    currency: 'AUD',
    timezone: 'Australia/Sydney',
    locale: 'en_AU',
    email: 'desk@bluewater.example',
    phone: '+61 2 5550 1234',
    website: 'https://bluewater.example',
    addressLine: 'Wharf 6, Circular Quay',
    city: 'Sydney',
    state: 'NSW',
    postCode: '2000',
    countryCode: 'AU',
  });
  for (const product of DEMO_PRODUCTS) await engine.products.create(product, SYSTEM_ACTOR);
  await loadDemoSessions(engine);
}

/** Daily departures of the demo's INVENTORY products: local start times and seats, by product name. */
export const DEMO_DEPARTURES: Record<string, { times: string[]; seats: number }> = {
  'Harbour Sunset Cruise': { times: ['09:00:00', '13:00:00', '17:30:00'], seats: 40 },
  'Rainforest Day Tour': { times: ['07:30:00'], seats: 20 },
  'Private Reef Charter': { times: ['08:00:00'], seats: 10 },
};

/** A week of sessions from the engine clock's today (in the company timezone), in one batch. */
export async function loadDemoSessions(engine: Engine, days = 7): Promise<void> {
  const zone = (await engine.companies.supplier()).timezone;
  const today = DateTime.fromMillis(engine.clock.now().getTime(), { zone }).startOf('day');
  const products = await engine.ctx.db
    .selectFrom('products')
    .select(['product_code', 'name'])
    .where('name', 'in', Object.keys(DEMO_DEPARTURES))
    .where('booking_mode', '=', 'INVENTORY')
    .where('deleted_at', 'is', null)
    .execute();
  const sessions = products.flatMap(({ product_code, name }) =>
    Array.from({ length: days }, (_, day) => today.plus({ days: day }).toFormat('yyyy-MM-dd')).flatMap((date) =>
      DEMO_DEPARTURES[name].times.map((time) => ({ productCode: product_code, startTimeLocal: `${date} ${time}`, seats: DEMO_DEPARTURES[name].seats })),
    ),
  );
  if (sessions.length) await engine.availability.createBatch(sessions, SYSTEM_ACTOR);
}
