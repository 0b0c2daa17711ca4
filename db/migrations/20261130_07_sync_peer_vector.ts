import { sql, type Kysely } from 'kysely';

/**
 * `sync_peers.peer_vector`: the peer's version vector as last heard (JSON), from its pull answers and
 * its push acknowledgements. With it the status counts the changes waiting for a peer as they are
 * now: a desk offline all morning kept saying "0 changes waiting", the count of its last success,
 * while its check-ins piled up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE sync_peers ADD COLUMN peer_vector TEXT').execute(db);
}

export async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE sync_peers ADD COLUMN peer_vector TEXT').execute(db);
}
