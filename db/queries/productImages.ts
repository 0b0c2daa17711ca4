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
