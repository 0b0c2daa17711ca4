import { z } from 'zod';
import { bool, opt, text } from './common';

export const PARTNER_CHANNELS = ['API', 'MARKETPLACE', 'OTA', 'RESELLER', 'OTHER'] as const;

/**
 * Per-product partner-connect settings (TourDesk's own fields; the spec shows none):
 * whether partners may sell the product, its id in the partner's system, the channel,
 * whether partner bookings confirm without a look from the desk, and free notes.
 */
const settingsFields = z.object({
  enabled: opt(bool),
  externalProductId: opt(text(200)),
  channel: opt(z.enum(PARTNER_CHANNELS)),
  autoConfirm: opt(bool),
  notes: opt(text(5000)),
});

/** Clients may send the settings bare or wrapped as they read them (`partnerConnect` / `rezdyConnectSettings`). */
export const partnerConnectBodySchema = z.preprocess((raw) => {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const body = raw as Record<string, unknown>;
    const wrapped = body.partnerConnect ?? body.rezdyConnectSettings;
    if (wrapped && typeof wrapped === 'object' && !Array.isArray(wrapped)) return wrapped;
  }
  return raw;
}, settingsFields);

export type PartnerConnectBody = z.infer<typeof settingsFields>;
