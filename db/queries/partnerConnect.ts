import type { Kysely } from 'kysely';
import type { Database, PartnerConnectTable } from '../schema';

type Db = Kysely<Database>;

export async function findPartnerConnect(db: Db, productCode: string): Promise<PartnerConnectTable | undefined> {
  return db.selectFrom('partner_connect').selectAll().where('product_code', '=', productCode).executeTakeFirst();
}

/** Stores the product's settings, replacing any it had. */
export async function upsertPartnerConnect(db: Db, productCode: string, settingsJson: string, now: number): Promise<void> {
  await db
    .insertInto('partner_connect')
    .values({ product_code: productCode, settings_json: settingsJson, updated_at: now })
    .onConflict((oc) => oc.column('product_code').doUpdateSet({ settings_json: settingsJson, updated_at: now }))
    .execute();
}

/** Removes the product's settings; answers whether there were any. */
export async function deletePartnerConnect(db: Db, productCode: string): Promise<boolean> {
  const result = await db.deleteFrom('partner_connect').where('product_code', '=', productCode).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
