import type { Engine } from './engine';
import type { ProductBody } from './api/schemas/products';
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
  await loadDemoCatalogue(engine);
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
