import { z } from 'zod';
import { idParam, opt, text } from './common';

/** TourDesk extension: API keys managed from the desk's settings (supplier keys only). */
export const API_KEY_ROLES = ['supplier', 'agent', 'checkin', 'sync'] as const;

export const apiKeyCreateSchema = z.object({
  name: text(100).pipe(z.string().trim().min(1, 'must not be empty')),
  role: z.enum(API_KEY_ROLES),
  /** Agent keys only: the reseller the key books for (made from the name when left out). */
  resellerId: opt(idParam),
});

export const apiKeyParams = z.object({ keyId: idParam });

/** A key as listed: never the key itself, only its first characters. */
export interface ApiKeyAnswer {
  id: number;
  name: string;
  role: (typeof API_KEY_ROLES)[number];
  prefix: string;
  resellerId: number | null;
  resellerName: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revoked: boolean;
}

/** The answer to a create: the only time the plaintext key is ever sent. */
export interface ApiKeyCreated {
  apiKey: ApiKeyAnswer;
  key: string;
}
