import type { Engine } from './engine';
import type { ProductBody } from './contract/products';
import { DateTime } from 'luxon';
import { SYSTEM_ACTOR } from './domain/context';
import { DomainError } from './domain/errors';
import { findLiveInventoryProductsNamed, findUpcomingSessionsOfProductsNamed } from '../db/queries/products';

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
  await loadDemoCatalogue(engine);
  await loadDemoCommerce(engine);
  await loadDemoBookings(engine);
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
  const products = await findLiveInventoryProductsNamed(engine.ctx.db, Object.keys(DEMO_DEPARTURES));
  const sessions = products.flatMap(({ product_code, name }) =>
    Array.from({ length: days }, (_, day) => today.plus({ days: day }).toFormat('yyyy-MM-dd')).flatMap((date) =>
      DEMO_DEPARTURES[name].times.map((time) => ({ productCode: product_code, startTimeLocal: `${date} ${time}`, seats: DEMO_DEPARTURES[name].seats })),
    ),
  );
  if (sessions.length) await engine.availability.createBatch(sessions, SYSTEM_ACTOR);
}

const DAY_MS = 86_400_000;

/**
 * A rate with a NET_RATE and a PERCENT product, an agent key on it (listed by `keys list`; its
 * plaintext is not printed), and vouchers: an ISSUED one of each value type that needs no category,
 * and an EXPIRED one. Categories and redemptions arrive with other modules, so there is no
 * *_LIMITCATALOG or partly redeemed voucher here.
 */
export async function loadDemoCommerce(engine: Engine): Promise<void> {
  const products = await engine.products.search({ limit: 100, offset: 0 });
  const code = (name: string) => products.find((p) => p.name === name)?.productCode;
  const cruise = code('Harbour Sunset Cruise');
  const rainforest = code('Rainforest Day Tour');
  const museum = code('City Museum Pass');
  if (!cruise || !rainforest || !museum) return;
  const rate = await engine.rates.create(
    {
      name: 'Hotel concierge desks',
      productRates: [
        {
          productCode: cruise,
          commissionType: 'NET_RATE',
          netRates: [
            { priceOptionLabel: 'Adult', netPrice: 71.2 },
            { priceOptionLabel: 'Child', netPrice: 36 },
            { priceOptionLabel: 'Family (2+2)', netPrice: 192 },
          ],
        },
        { productCode: rainforest, commissionType: 'PERCENT', percentageCommission: 15, percentageIncludeExtras: false },
      ],
    },
    SYSTEM_ACTOR,
  );
  const agent = await engine.apiKeys.create({ role: 'agent', name: 'Harbourview Hotel concierge' }, SYSTEM_ACTOR);
  const resellerId = (await engine.apiKeys.list()).find((k) => k.id === agent.id)?.resellerId;
  if (resellerId) await engine.resellers.attachRate(rate.rateId, resellerId, SYSTEM_ACTOR);

  const now = engine.clock.now().getTime();
  const inAYear = new Date(now + 365 * DAY_MS).toISOString();
  const vouchers = [
    { code: 'WELCOME50', valueType: 'VALUE', value: 50, expiryDate: inAYear, internalNotes: 'Welcome gift for returning guests' },
    { code: 'CRUISE20', valueType: 'VALUE_LIMITPRODUCT', value: 20, productCode: cruise, expiryDate: inAYear },
    { code: 'SPRING10', valueType: 'PERCENT', value: 10, expiryDate: inAYear, internalReference: 'HARBOURVIEW' },
    { code: 'RAINFOREST15', valueType: 'PERCENT_LIMITPRODUCT', value: 15, productCode: rainforest },
    { code: 'MUSEUMFREE', valueType: 'PRODUCT', productCode: museum, internalNotes: 'Prize for the school quiz' },
  ] as const;
  for (const voucher of vouchers) await engine.vouchers.create(voucher, SYSTEM_ACTOR);
  await engine.vouchers.create(
    { code: 'WINTER25', valueType: 'VALUE', value: 25, expiryDate: new Date(now - 30 * DAY_MS).toISOString(), internalNotes: 'Last winter’s promotion' },
    SYSTEM_ACTOR,
    { allowPastExpiry: true },
  );
}

/**
 * The catalogue around the demo products: categories (one hidden), extras of each price type on
 * products, hotel pickups for the rainforest tour, and partner-connect settings on the cruise.
 */
export async function loadDemoCatalogue(engine: Engine): Promise<void> {
  const codeOf = async (name: string) => {
    const [product] = await engine.products.search({ search: name, limit: 1, offset: 0 });
    if (!product) throw new Error(`Demo product ${name} is missing`);
    return product.productCode;
  };
  const cruise = await codeOf('Harbour Sunset Cruise');
  const rainforest = await codeOf('Rainforest Day Tour');
  const charter = await codeOf('Private Reef Charter');
  const museum = await codeOf('City Museum Pass');
  const giftCard = await codeOf('Gift Card');

  const onTheWater = await engine.categories.create({ name: 'On the water', description: 'Cruises and charters on the harbour and the reef.', visible: true }, SYSTEM_ACTOR);
  const dayTours = await engine.categories.create({ name: 'Day tours', description: 'Full-day trips with lunch.', visible: true }, SYSTEM_ACTOR);
  const desk = await engine.categories.create({ name: 'Desk only', description: 'Sold at the desk, not shown to partners.', visible: false }, SYSTEM_ACTOR);
  for (const [category, code] of [[onTheWater.id, cruise], [onTheWater.id, charter], [dayTours.id, rainforest], [desk.id, museum], [desk.id, giftCard]] as const) {
    await engine.categories.addProduct(category, code, SYSTEM_ACTOR);
  }

  const lunch = await engine.extras.create({ name: 'Gourmet lunch', description: 'Local produce lunch box with a drink.', extraPriceType: 'QUANTITY', price: 25, unitLabel: 'lunch' }, SYSTEM_ACTOR);
  const photos = await engine.extras.create({ name: 'Photo package', description: 'All photos of your trip, sent by email.', extraPriceType: 'FIXED', price: 39 }, SYSTEM_ACTOR);
  const donation = await engine.extras.create({ name: 'Reef conservation donation', description: 'Any amount, passed on in full.', extraPriceType: 'ANY', price: 5 }, SYSTEM_ACTOR);
  await engine.products.update(rainforest, { extras: [{ id: lunch.id }, { id: photos.id }] }, SYSTEM_ACTOR);
  await engine.products.update(cruise, { extras: [{ id: photos.id }] }, SYSTEM_ACTOR);
  await engine.products.update(charter, { extras: [{ id: lunch.id }, { id: donation.id }] }, SYSTEM_ACTOR);

  const hotels = await engine.pickups.create(
    {
      name: 'City hotels',
      additionalNotes: 'Wait at the front entrance; the bus shows the Bluewater logo.',
      otherLocationInstructions: 'Staying elsewhere? Name your hotel and we confirm a pickup point by email.',
      pickupLocations: [
        { locationName: 'Harbourside Grand Hotel', address: '1 Macquarie St, Sydney NSW 2000', latitude: -33.8612, longitude: 151.2124, minutesPrior: 45, additionalInstructions: 'Main lobby doors' },
        { locationName: 'Rocks Heritage Inn', address: '20 George St, The Rocks NSW 2000', latitude: -33.8587, longitude: 151.2087, minutesPrior: 40 },
        { locationName: 'Darling Park Hotel', address: '150 Day St, Sydney NSW 2000', latitude: -33.8731, longitude: 151.2041, minutesPrior: 30, additionalInstructions: 'Day St side' },
      ],
    },
    SYSTEM_ACTOR,
  );
  await engine.products.update(rainforest, { pickupId: hotels.id }, SYSTEM_ACTOR);

  await engine.partnerConnect.put(cruise, { enabled: true, externalProductId: 'HSC-001', channel: 'OTA', autoConfirm: true, notes: 'Listed with the city pass partner.' }, SYSTEM_ACTOR);
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
  // From half an hour ahead: the next departure gets a queue to check in on a first look.
  const sessions = await findUpcomingSessionsOfProductsNamed(engine.ctx.db, DEMO_PRODUCTS.map((p) => p.name), now + 30 * 60_000, 60);
  if (sessions.length === 0) return;
  const made: string[] = [];
  for (const [i, [firstName, lastName]] of DEMO_PEOPLE.entries()) {
    const session = i < 4 ? sessions[0] : sessions[(i * 7) % sessions.length];
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
  // A museum pass paid partly with the WELCOME50 gift voucher leaves it partially redeemed.
  const museum = (await engine.products.search({ search: 'City Museum Pass', limit: 1, offset: 0 }))[0];
  if (museum) {
    try {
      await engine.bookings.create(
        {
          customer: { firstName: 'Hannah', lastName: 'Fischer', email: 'hannah.fischer@example.test' },
          items: [{ productCode: museum.productCode, quantities: [{ optionLabel: 'Adult', value: 1 }] }],
          vouchers: ['WELCOME50'],
        },
        SYSTEM_ACTOR,
      );
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
}
