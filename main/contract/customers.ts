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
