import { z } from 'zod';
import { bool, idParam, opt, text } from './common';

export const TITLES = ['MR', 'MS', 'MRS', 'MISS'] as const;
export const GENDERS = ['MALE', 'FEMALE'] as const;

const twoLetters = z.string().trim().regex(/^[A-Za-z]{2}$/, 'must be a 2-letter code');

/** Every Customer field of the spec; `skype` (the original service's word) is read as messengerAlias. */
export const customerSchema = z
  .object({
    id: opt(idParam),
    firstName: opt(text(200)),
    middleName: opt(text(200)),
    lastName: opt(text(200)),
    name: opt(text(600)),
    title: opt(z.enum(TITLES)),
    gender: opt(z.enum(GENDERS)),
    dob: opt(text(40)),
    email: opt(text(320)),
    phone: opt(text(60)),
    mobile: opt(text(60)),
    fax: opt(text(60)),
    messengerAlias: opt(text(200)),
    skype: opt(text(200)),
    companyName: opt(text(200)),
    addressLine: opt(text(500)),
    addressLine2: opt(text(500)),
    city: opt(text(200)),
    state: opt(text(200)),
    postCode: opt(text(40)),
    countryCode: opt(twoLetters),
    preferredLanguage: opt(twoLetters),
    aboutUs: opt(text(2000)),
    marketing: opt(bool),
    newsletter: opt(bool),
  })
  .transform(({ skype, ...rest }) => (rest.messengerAlias === undefined && skype !== undefined ? { ...rest, messengerAlias: skype } : rest));

export type CustomerBody = z.infer<typeof customerSchema>;

/** A customer as the API answers it: `name` is the name parts joined; fields without a value are left out. */
export const customerAnswerSchema = z.object({
  id: z.number(),
  name: z.string(),
  firstName: z.string().optional(),
  middleName: z.string().optional(),
  lastName: z.string().optional(),
  title: z.string().optional(),
  gender: z.string().optional(),
  dob: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  mobile: z.string().optional(),
  fax: z.string().optional(),
  messengerAlias: z.string().optional(),
  companyName: z.string().optional(),
  addressLine: z.string().optional(),
  addressLine2: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  postCode: z.string().optional(),
  countryCode: z.string().optional(),
  preferredLanguage: z.string().optional(),
  aboutUs: z.string().optional(),
  marketing: z.boolean().optional(),
  newsletter: z.boolean().optional(),
  /** Set once the customer was anonymised (it had bookings when deleted). */
  anonymised: z.literal(true).optional(),
});

export type Customer = z.infer<typeof customerAnswerSchema>;
export type CustomerList = { customers: Customer[] };
