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

/** The answer of POST /v1/pairing/checkin: the new key's id and name, the scanner link (holding the key) and its QR code. */
export const pairingAnswerSchema = z.object({
  keyId: z.number().int(),
  name: z.string(),
  /** The scanner link for the phone, with the key in its fragment (never sent to a server). */
  url: z.string(),
  /** Every address of this machine the phone could open; the link uses the first. */
  origins: z.array(z.string()),
  /** Whether the phone's browser will treat the address as secure (https or loopback): the camera needs it. */
  secure: z.boolean(),
  qrSvg: z.string(),
});
export type PairingAnswer = z.infer<typeof pairingAnswerSchema>;
