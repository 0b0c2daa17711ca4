import { z } from 'zod';
import { opt, text } from './common';
import { CURRENCIES } from './enums';

/**
 * The supplier company as the engine sets it up: at first start, from `tourdesk company set`, in the
 * demo, and from PUT /v1/company merged over the current one. Currency and timezone also arrive as
 * plain text from the command line, so the domain checks them (a supported currency, an IANA name).
 */
export const companyInputSchema = z.object({
  /** Made from companyName when left out. */
  alias: z.string().optional(),
  companyName: z.string(),
  description: z.string().nullable().optional(),
  currency: z.string(),
  timezone: z.string(),
  locale: z.string().optional(),
  email: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
  website: z.string().nullable().optional(),
  addressLine: z.string().nullable().optional(),
  addressLine2: z.string().nullable().optional(),
  city: z.string().nullable().optional(),
  state: z.string().nullable().optional(),
  postCode: z.string().nullable().optional(),
  countryCode: z.string().nullable().optional(),
  latitude: z.number().nullable().optional(),
  longitude: z.number().nullable().optional(),
  logoUrl: z.string().nullable().optional(),
});
export type CompanyInput = z.infer<typeof companyInputSchema>;

/** The company as answered (GET and PUT /v1/company, GET /v1/companies/alias/:alias): every field, null when not set. */
export const companyAnswerSchema = companyInputSchema.required().extend({
  id: z.number(),
  description: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  addressLine: z.string().nullable(),
  addressLine2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postCode: z.string().nullable(),
  countryCode: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  logoUrl: z.string().nullable(),
});
export type CompanyAnswer = z.infer<typeof companyAnswerSchema>;

/**
 * TourDesk extension: the supplier company as the desk's settings edit it. `PUT /v1/company`
 * changes only the fields sent (null clears an optional one). The fields are the company's
 * (`pick` names them), each checked here before the domain sees it.
 */
export const companyUpdateSchema = companyInputSchema.pick({ companyName: true, timezone: true, currency: true, email: true, phone: true, website: true }).extend({
  companyName: opt(text(200).pipe(z.string().trim().min(1, 'must not be empty'))),
  timezone: opt(text(64)),
  currency: opt(z.enum(CURRENCIES)),
  email: z.union([text(320), z.null()]).optional(),
  phone: z.union([text(60), z.null()]).optional(),
  website: z.union([text(500), z.null()]).optional(),
});

/** Who is asking and where: what the desk app shows in its status bar and settings. */
export interface InstanceAnswer {
  instance: {
    instanceNo: number;
    version: string;
    /** The key this request came with (its role decides what the app offers). */
    key: { id: number | null; name: string; role: string };
    /** Supplier keys only: where this instance keeps its database, media and backups. */
    dataFolder?: string | null;
    /** How the company writes dates, times and money (every screen formats with these); null before a company is set up. */
    company?: { locale: string; timezone: string; currency: string } | null;
  };
}

/** One backup file of the data folder (TourDesk extension). */
export const backupRecordSchema = z.object({
  file: z.string(),
  /** When it was made (ISO 8601). */
  time: z.string(),
  bytes: z.number().int(),
  mediaFiles: z.number().int(),
  /** Made by the daily schedule rather than `tourdesk backup`. */
  automatic: z.boolean(),
});
export type BackupRecord = z.infer<typeof backupRecordSchema>;

/** A backup file in the data folder's backup folder, which GET /v1/system/backups/{name} downloads. */
export const backupFileSchema = z.object({
  name: z.string(),
  /** When it was written (ISO 8601). */
  time: z.string(),
  bytes: z.number().int(),
  /** Made by the daily schedule rather than asked for. */
  automatic: z.boolean(),
  /** This server's path that downloads it (with a supplier key). */
  downloadPath: z.string(),
});
export type BackupFile = z.infer<typeof backupFileSchema>;

/** GET /v1/system/backups: the last backup, the automatic daily ones kept, and every backup file there is to download. */
export const backupsAnswerSchema = z.object({
  lastBackup: backupRecordSchema.nullable(),
  automaticBackups: z.array(backupRecordSchema.pick({ file: true, time: true, bytes: true })),
  /** Every backup in the backup folder (daily ones and those made through POST /v1/system/backups), newest first. */
  backups: z.array(backupFileSchema),
  /** Where backups go; null for an engine without a data folder (tests, in memory). */
  backupFolder: z.string().nullable(),
  keepDays: z.number().int(),
  /** How this server's data is backed up when it cannot make backups itself (a hub on PostgreSQL: pg_dump); null when it can. */
  backupAdvice: z.string().nullable(),
});
/** GET /v1/system/backups/{name}: a name GET /v1/system/backups lists. */
export const backupNameParams = z.object({ name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters') });

/** POST /v1/system/backups takes no settings: no body, or an empty JSON object (any other body is refused). */
export const backupRequestSchema = z.object({}).optional();

/** POST /v1/system/backups: the backup just made. */
export const createdBackupSchema = backupFileSchema.extend({ mediaFiles: z.number().int() });
export type CreatedBackup = z.infer<typeof createdBackupSchema>;
export type BackupsAnswer = z.infer<typeof backupsAnswerSchema>;
