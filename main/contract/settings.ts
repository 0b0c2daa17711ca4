import { z } from 'zod';
import { opt, text } from './common';
import { CURRENCIES } from './enums';

/**
 * TourDesk extension: the supplier company as the desk's settings edit it. `PUT /v1/company`
 * changes only the fields sent (null clears an optional one).
 */
export const companyUpdateSchema = z.object({
  companyName: opt(text(200).pipe(z.string().trim().min(1, 'must not be empty'))),
  timezone: opt(text(64)),
  currency: opt(z.enum(CURRENCIES)),
  email: z.union([text(320), z.null()]).optional(),
  phone: z.union([text(60), z.null()]).optional(),
  website: z.union([text(500), z.null()]).optional(),
});
export type CompanyUpdateBody = z.infer<typeof companyUpdateSchema>;

/** Who is asking and where: what the desk app shows in its status bar and settings. */
export interface InstanceAnswer {
  instance: {
    instanceNo: number;
    version: string;
    /** The key this request came with (its role decides what the app offers). */
    key: { id: number | null; name: string; role: string };
    /** Supplier keys only: where this instance keeps its database, media and backups. */
    dataFolder?: string | null;
  };
}
