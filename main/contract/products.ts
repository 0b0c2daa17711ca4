import { z } from 'zod';
import { bool, int, nonNegInt, num, opt, text } from './common';
import { CURRENCIES } from './enums';
import { paging, qString } from './query';

export const PRODUCT_TYPES = ['ACTIVITY', 'DAYTOUR', 'MULTIDAYTOUR', 'PRIVATE_TOUR', 'TICKET', 'RENTAL', 'CHARTER', 'EVENT', 'GIFT_CARD', 'TRANSFER', 'LESSON', 'MERCHANDISE', 'CUSTOM'] as const;
export const BOOKING_MODES = ['NO_DATE', 'DATE_ENQUIRY', 'INVENTORY'] as const;
export const CONFIRM_MODES = ['MANUAL', 'AUTOCONFIRM', 'MANUAL_THEN_AUTO', 'AUTO_THEN_MANUAL'] as const;
export const AGENT_PAYMENT_TYPES = ['PAYOUTS', 'FULL_AGENT', 'DOWNPAYMENT', 'FULL_SUPPLIER', 'NONE'] as const;
export const BARCODE_OUTPUT_TYPES = ['PARTICIPANT', 'ORDER'] as const;
export const QR_CODE_TYPES = ['INTERNAL', 'EXTERNAL'] as const;
export const PRICE_GROUP_TYPES = ['EACH', 'TOTAL'] as const;
export const FIELD_TYPES = ['String', 'List', 'Boolean', 'Phone', 'Date', 'Hidden'] as const;
export const SEO_META_TYPES = ['META_NAME', 'META_PROPERTY', 'LINK_REL', 'TITLE', 'NOINDEX', 'REL_CANONICAL'] as const;

export const priceOptionSchema = z.object({
  id: opt(int),
  label: z.string().trim().min(1, 'must not be empty').max(120),
  price: num,
  priceGroupType: opt(z.enum(PRICE_GROUP_TYPES)),
  minQuantity: opt(nonNegInt),
  maxQuantity: opt(nonNegInt),
  seatsUsed: opt(nonNegInt),
  productCode: opt(z.string()),
});

export const bookingFieldSchema = z.object({
  fieldType: opt(z.enum(FIELD_TYPES)),
  label: opt(text(500)),
  listOptions: opt(text(10_000)),
  requiredPerBooking: opt(bool),
  requiredPerParticipant: opt(bool),
  visiblePerBooking: opt(bool),
  visiblePerParticipant: opt(bool),
  value: opt(text(10_000)),
});

const imageSchema = z.object({
  id: opt(int),
  itemUrl: opt(z.string()),
  largeSizeUrl: opt(z.string()),
  mediumSizeUrl: opt(z.string()),
  thumbnailUrl: opt(z.string()),
});

const productFields = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(200),
    internalCode: opt(text(100)),
    productType: opt(z.enum(PRODUCT_TYPES)),
    shortDescription: opt(z.string().min(15, 'must be 15 to 240 characters').max(240, 'must be 15 to 240 characters')),
    description: opt(z.string().min(100, 'must be 100 to 15000 characters').max(15000, 'must be 100 to 15000 characters')),
    additionalInformation: opt(text(15_000)),
    generalTerms: opt(text(15_000)),
    terms: opt(text(15_000)),
    advertisedPrice: opt(num.pipe(z.number().min(0))),
    currency: opt(z.enum(CURRENCIES)),
    priceOptions: opt(z.array(priceOptionSchema).max(100)),
    bookingMode: opt(z.enum(BOOKING_MODES)),
    confirmMode: opt(z.enum(CONFIRM_MODES)),
    confirmModeMinParticipants: opt(nonNegInt),
    agentPaymentType: opt(z.enum(AGENT_PAYMENT_TYPES)),
    cancellationPolicyDays: opt(nonNegInt),
    barcodeOutputType: opt(z.enum(BARCODE_OUTPUT_TYPES)),
    qrCodeType: opt(z.enum(QR_CODE_TYPES)),
    charter: opt(bool),
    quantityRequired: opt(bool),
    quantityRequiredMin: opt(nonNegInt),
    quantityRequiredMax: opt(nonNegInt),
    durationMinutes: opt(nonNegInt),
    minimumNoticeMinutes: opt(nonNegInt),
    waitListingEnabled: opt(bool),
    apiBookingSupported: opt(bool),
    commissionIncludesExtras: opt(bool),
    maxCommissionNetRate: opt(num.pipe(z.number().min(0))),
    maxCommissionPercent: opt(num.pipe(z.number().min(0).max(100))),
    bookingFields: opt(z.array(bookingFieldSchema).max(200)),
    extras: opt(z.array(z.object({ id: int })).max(200)),
    images: opt(z.array(imageSchema)),
    videos: opt(z.array(z.object({ id: opt(z.string()), platform: opt(z.string()), url: opt(z.string()) })).max(50)),
    languages: opt(z.array(z.string().max(20)).max(100)),
    tags: opt(z.array(z.string().max(200)).max(200)),
    locationAddress: opt(
      z.object({
        addressLine: opt(text(500)),
        addressLine2: opt(text(500)),
        city: opt(text(200)),
        countryCode: opt(text(2)),
        postCode: opt(text(40)),
        state: opt(text(200)),
        latitude: opt(num),
        longitude: opt(num),
      }),
    ),
    pickupId: opt(int),
    productSeoTags: opt(
      z
        .array(
          z.object({
            id: opt(int),
            productCode: opt(z.string()),
            attrKey: opt(text(500)),
            attrValue: opt(text(2000)),
            metaType: opt(z.enum(SEO_META_TYPES)),
          }),
        )
        .max(100),
    ),
    taxes: opt(
      z
        .array(
          z.object({
            compound: opt(bool),
            label: opt(text(200)),
            priceInclusive: opt(bool),
            supplierId: opt(int),
            taxAmount: opt(num),
            taxPercent: opt(num.pipe(z.number().min(0).max(100))),
            taxType: opt(text(50)),
          }),
        )
        .max(20),
    ),
    timezone: opt(z.string().max(64)),
    unitLabel: opt(text(100)),
    unitLabelPlural: opt(text(100)),
    accountingAccount: opt(text(100)),
    /** The original service's brand word for accountingAccount. */
    xeroAccount: opt(text(100)),
    /** TourDesk extension: refuse check-in of unpaid bookings instead of warning. */
    checkinRequiresPayment: opt(bool),
    /** TourDesk extension: refuse (400) bookings missing this product's required booking fields. */
    enforceRequiredFields: opt(bool),
    /** TourDesk extension: a scan earlier than start minus these minutes answers NOT_YET_OPEN; null (kept, so PUT can clear it) = always open. */
    checkinOpensMinutesBefore: nonNegInt.nullable().optional(),
  });

const minNotAboveMax = {
  check: (p: { quantityRequiredMin?: number; quantityRequiredMax?: number }) =>
    p.quantityRequiredMin === undefined || p.quantityRequiredMax === undefined || p.quantityRequiredMin <= p.quantityRequiredMax,
  params: { message: 'quantityRequiredMin must not be greater than quantityRequiredMax', path: ['quantityRequiredMin'] },
};

export const productBodySchema = productFields.refine(minNotAboveMax.check, minNotAboveMax.params);
/** PUT takes the same fields; every one optional (fields left out keep their value). */
export const productUpdateSchema = productFields.partial().refine(minNotAboveMax.check, minNotAboveMax.params);

export type ProductBody = z.infer<typeof productBodySchema>;
export type ProductUpdateBody = z.infer<typeof productUpdateSchema>;
export type PriceOptionBody = z.infer<typeof priceOptionSchema>;

/** A price option as products and sessions answer it (a session's with its overrides applied). */
export const priceOptionAnswerSchema = z.object({
  id: z.number(),
  label: z.string(),
  price: z.number(),
  priceGroupType: z.string().optional(),
  minQuantity: z.number().optional(),
  maxQuantity: z.number().optional(),
  seatsUsed: z.number(),
  productCode: z.string(),
});
export type PriceOptionAnswer = z.infer<typeof priceOptionAnswerSchema>;

/** GET /v1/products and /v1/products/marketplace: a text search, paged. */
export const productSearchQuery = z.object({ search: qString.optional(), ...paging });
export type ProductSearchQuery = z.infer<typeof productSearchQuery>;
