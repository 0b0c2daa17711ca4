import type { Engine } from './engine';
import type { ProductBody } from './api/schemas/products';
import { SYSTEM_ACTOR } from './domain/context';
import { DomainError } from './domain/errors';

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
  await loadDemoBookings(engine);
}

const DEMO_PEOPLE = [
  ['Olivia', 'Nguyen'], ['Jack', 'Smith'], ['Mia', 'Patel'], ['Noah', 'Williams'], ['Charlotte', 'Brown'], ['Liam', 'Jones'],
  ['Amelia', 'Garcia'], ['Oliver', 'Chen'], ['Isla', 'Wilson'], ['Leo', 'Taylor'], ['Ava', 'Martin'], ['Henry', 'Kelly'],
  ['Grace', 'Murphy'], ['Lucas', 'Rossi'], ['Zoe', 'Anderson'], ['Ethan', 'Walker'],
];

/**
 * Books a realistic spread of bookings on the demo products' upcoming sessions (added by the
 * availability demo): customers, named participants, a few payments, one cancellation. Does
 * nothing when there are no sessions yet; a booking a rule refuses (a taken charter, a full
 * session) is skipped.
 */
export async function loadDemoBookings(engine: Engine): Promise<void> {
  const now = engine.clock.now().getTime();
  const sessions = await engine.ctx.db
    .selectFrom('sessions')
    .innerJoin('products', 'products.product_code', 'sessions.product_code')
    .select(['sessions.product_code', 'sessions.start_at'])
    .where('products.name', 'in', DEMO_PRODUCTS.map((p) => p.name))
    .where('products.deleted_at', 'is', null)
    .where('sessions.start_at', '>', now + 86_400_000)
    .orderBy('sessions.start_at')
    .limit(60)
    .execute();
  if (sessions.length === 0) return;
  const made: string[] = [];
  for (const [i, [firstName, lastName]] of DEMO_PEOPLE.entries()) {
    const session = sessions[(i * 7) % sessions.length];
    const product = await engine.products.get(session.product_code);
    const option = product.priceOptions[i % product.priceOptions.length];
    const value = option.priceGroupType === 'TOTAL' ? 1 : 1 + (i % 3);
    const participants = Array.from({ length: value }, (_, p) => ({
      fields: [
        { label: 'First Name', value: p === 0 ? firstName : DEMO_PEOPLE[(i + p + 3) % DEMO_PEOPLE.length][0] },
        { label: 'Last Name', value: lastName },
      ],
    }));
    try {
      const { booking } = await engine.bookings.create(
        {
          customer: { firstName, lastName, email: `${firstName}.${lastName}@example.test`.toLowerCase(), phone: `+61 400 ${String(100000 + i * 7919).slice(0, 6)}` },
          items: [{ productCode: product.productCode, startTime: new Date(session.start_at).toISOString(), quantities: [{ optionId: option.id, value }], participants }],
          payments: i % 3 === 0 ? [{ type: i % 2 ? 'CASH' : 'CREDITCARD', amount: option.price * (option.priceGroupType === 'TOTAL' ? 1 : value) }] : undefined,
          comments: i % 5 === 0 ? 'Booked at the harbour kiosk' : undefined,
        },
        SYSTEM_ACTOR,
      );
      made.push(booking.orderNumber);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  if (made.length > 1) await engine.bookings.cancel(made[1], SYSTEM_ACTOR);
}
