import type { Insertable, Kysely } from 'kysely';
import type { Database, ParticipantsTable } from '../schema';
import { fixedInsert } from './compiled';

/** One statement per 100 participants stays far below SQLite's bound-parameter limit. */
const PARTICIPANTS_PER_INSERT = 100;
const participantsInsert = fixedInsert('participants');

export async function insertParticipants(db: Kysely<Database>, rows: Insertable<ParticipantsTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += PARTICIPANTS_PER_INSERT) await participantsInsert(db, rows.slice(i, i + PARTICIPANTS_PER_INSERT));
}

/** The stored fields (JSON) of an item's participants, in position order. */
export async function listParticipantFieldsJson(db: Kysely<Database>, itemId: number): Promise<string[]> {
  const rows = await db.selectFrom('participants').select('fields_json').where('item_id', '=', itemId).orderBy('position').execute();
  return rows.map((p) => p.fields_json);
}

export async function setParticipantFields(db: Kysely<Database>, itemId: number, position: number, fieldsJson: string): Promise<void> {
  await db.updateTable('participants').set({ fields_json: fieldsJson }).where('item_id', '=', itemId).where('position', '=', position).execute();
}

export async function setParticipantBarcode(db: Kysely<Database>, participantId: number, barcode: string): Promise<void> {
  await db.updateTable('participants').set({ barcode }).where('id', '=', participantId).execute();
}
