import { z } from 'zod';
import { idParam, opt } from './common';
import { bookingAnswerSchema } from './bookings';

export const orderNumberParams = z.object({ orderNumber: z.string().trim().min(1).max(40) });

/** TourDesk extension: which code to reissue; without participantId, every code of the order. */
export const reissueBodySchema = z.object({ participantId: opt(idParam) });

/** One code replaced by a reissue. */
export const reissuedCodeSchema = z.object({ participantId: z.number().nullable(), itemId: z.number().nullable(), code: z.string(), revokedCode: z.string() });

/** The answer to a reissue: the booking with its new codes, what was replaced, and when. */
export const reissueAnswerSchema = z.object({ booking: bookingAnswerSchema, reissued: z.array(reissuedCodeSchema), reissuedAt: z.string() });

export type ReissuedCode = z.infer<typeof reissuedCodeSchema>;
export type ReissueAnswer = z.infer<typeof reissueAnswerSchema>;
