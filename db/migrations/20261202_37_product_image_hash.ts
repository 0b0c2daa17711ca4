import { sql, type Kysely } from 'kysely';
import { captureStatements } from '../syncCapture';

/**
 * Issue 38 (images travel): product_images.content_hash, the SHA-256 (hex) of the uploaded original.
 * The row syncs; the files do not travel with it: an instance that has the row but not the files
 * fetches the original from its peer by this hash (GET /v1/sync/media/{hash}) and renders the
 * variants itself. NULL for images uploaded before it (their files are hashed by the instance that
 * holds them: main/sync/media.ts). product_images is a synced table: its capture triggers are re-made
 * so they carry the new column (PostgreSQL's capture reads whole rows and needs nothing).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE product_images ADD COLUMN content_hash TEXT').execute(db);
  await sql.raw('CREATE INDEX product_images_content_hash ON product_images (content_hash)').execute(db);
  for (const statement of await captureStatements(db, { product_images: ['id'] })) await sql.raw(statement).execute(db);
}

/** PostgreSQL: the column and its index (capture there is row_to_json, whole rows). */
export async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE product_images ADD COLUMN content_hash TEXT').execute(db);
  await sql.raw('CREATE INDEX product_images_content_hash ON product_images (content_hash)').execute(db);
}
