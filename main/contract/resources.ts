import { z } from 'zod';
import { nonNegInt, opt } from './common';
import { paging, qNonNegInt32, qString, qTime } from './query';

export const RESOURCE_TYPES = ['GUIDE', 'VEHICLE', 'BOAT', 'ROOM', 'EQUIPMENT', 'OTHER'] as const;

export const resourceCreateSchema = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(200),
  resourceType: opt(z.enum(RESOURCE_TYPES)),
  seats: opt(nonNegInt),
});
export const resourceUpdateSchema = resourceCreateSchema.partial();

export const resourceOrderQuery = z.object({ resourceOrder: qNonNegInt32.optional() });

export const resourceSessionsQuery = z.object({
  startTime: qTime.optional(),
  endTime: qTime.optional(),
  startTimeLocal: qTime.optional(),
  endTimeLocal: qTime.optional(),
  ...paging,
});

export const sessionResourcesQuery = z.object({
  sessionId: qString.pipe(z.string().trim().regex(/^\d+$/, 'must be a numeric id').transform(Number)).optional(),
  productCode: qString.optional(),
  startTime: qTime.optional(),
  startTimeLocal: qTime.optional(),
});

export type ResourceCreateBody = z.infer<typeof resourceCreateSchema>;
export type ResourceUpdateBody = z.infer<typeof resourceUpdateSchema>;
export type ResourceSessionsQuery = z.infer<typeof resourceSessionsQuery>;
export type SessionResourcesQuery = z.infer<typeof sessionResourcesQuery>;
