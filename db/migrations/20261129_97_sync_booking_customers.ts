import { sql, type Kysely } from 'kysely';

/**
 * Which customers a booking held before this instance joined from a snapshot (issue 16, model seed
 * -2146884130). Erasure blanks every booking that holds or ever held the customer; "ever held" was
 * read from the booking's ops, but an instance that joined from a snapshot has the rows without
 * their ops. A booking edited away from its customer before (or after) the join then kept the
 * erased guest's comments here while every other instance blanked them. The snapshot now carries
 * each booking's customers, and they are kept here: a grow-only set, read beside the ops.
 * PostgreSQL gets the table too (translated).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `CREATE TABLE sync_booking_customers (
        order_number TEXT NOT NULL,
        customer_id INTEGER NOT NULL,
        PRIMARY KEY (order_number, customer_id)
      ) WITHOUT ROWID, STRICT`,
    )
    .execute(db);
  await sql.raw('CREATE INDEX sync_booking_customers_customer ON sync_booking_customers (customer_id)').execute(db);
}
