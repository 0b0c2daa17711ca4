import { isPostgresUrl } from '../../db/dialect';

/** A mistake in how a command was called: the CLI says so and exits with 2. */
export class UsageError extends Error {}

/** Where a command writes its lines. */
export type Out = (line: string) => void;

/** --database or TOURDESK_DATABASE_URL: the hub on PostgreSQL; neither: SQLite in the data folder. */
export function databaseOf(values: { database?: string }): string | undefined {
  const url = values.database ?? process.env.TOURDESK_DATABASE_URL;
  if (url === undefined || url === '') return undefined;
  if (!isPostgresUrl(url)) throw new UsageError('--database (or TOURDESK_DATABASE_URL) takes a postgres:// URL; without it TourDesk keeps its SQLite database in the data folder');
  return url;
}

/** The URL without its password, for messages. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'the given URL';
  }
}
