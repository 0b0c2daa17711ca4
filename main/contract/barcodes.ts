import { z } from 'zod';
import { idParam, opt } from './common';

export const orderNumberParams = z.object({ orderNumber: z.string().trim().min(1).max(40) });

/** TourDesk extension: which code to reissue; without participantId, every code of the order. */
export const reissueBodySchema = z.object({ participantId: opt(idParam) });
