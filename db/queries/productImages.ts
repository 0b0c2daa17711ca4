import type { Kysely } from 'kysely';
import type { Database, ProductImagesTable } from '../schema';

type Db = Kysely<Database>;

/** The position after the product's last image (0 for its first). */
export async function nextImagePosition(db: Db, productCode: string): Promise<number> {
  const last = await db
    .selectFrom('product_images')
    .select((eb) => eb.fn.max<number | null>('position').as('position'))
    .where('product_code', '=', productCode)
    .executeTakeFirst();
  return (last?.position ?? -1) + 1;
}

export async function insertProductImage(db: Db, row: ProductImagesTable): Promise<void> {
  await db.insertInto('product_images').values(row).execute();
}

/** The folder name of the product's image, or undefined when the product has no such image. */
export async function findProductImageStem(db: Db, productCode: string, imageId: number): Promise<string | undefined> {
  const row = await db.selectFrom('product_images').select('file_stem').where('id', '=', imageId).where('product_code', '=', productCode).executeTakeFirst();
  return row?.file_stem;
}

export async function deleteProductImage(db: Db, imageId: number): Promise<void> {
  await db.deleteFrom('product_images').where('id', '=', imageId).execute();
}

export type StoredImage = Pick<ProductImagesTable, 'id' | 'file_stem' | 'mime_type'> & { content_hash: string | null };

/** Every image row with what locates its files (a small table: a catalogue's images). */
export async function allImageFiles(db: Db): Promise<StoredImage[]> {
  return db.selectFrom('product_images').select(['id', 'file_stem', 'mime_type', 'content_hash']).orderBy('id').execute() as Promise<StoredImage[]>;
}

/** The image whose original has this hash, or undefined. */
export async function findImageByHash(db: Db, hash: string): Promise<StoredImage | undefined> {
  return db.selectFrom('product_images').select(['id', 'file_stem', 'mime_type', 'content_hash']).where('content_hash', '=', hash).orderBy('id').executeTakeFirst() as Promise<StoredImage | undefined>;
}

export async function setImageHash(db: Db, imageId: number, hash: string): Promise<void> {
  await db.updateTable('product_images').set({ content_hash: hash }).where('id', '=', imageId).where('content_hash', 'is', null).execute();
}
