import { z } from 'zod';
import { opt, text } from './common';

/** TourDesk extension: a new check-in key for a guide's phone, as a link and a QR code. */
export const pairingBodySchema = z.object({
  /** The key's and the device's name ("Pier phone"). */
  name: opt(text(100).pipe(z.string().trim().min(1, 'must not be empty'))),
  /** The address the phone should open (https://192.168.1.20:8443); by default this server's own. */
  origin: opt(
    z
      .string()
      .trim()
      .regex(/^https?:\/\/[^/?#\s]+$/i, 'must be a scheme and host, like https://192.168.1.20:8443'),
  ),
});
export type PairingBody = z.infer<typeof pairingBodySchema>;
