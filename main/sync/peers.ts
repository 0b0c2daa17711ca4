import type { Kysely } from 'kysely';
import { earlierOrigins, recordSuccession, retireEarlierSelf } from '../../db/queries/syncIncarnation';
import type { Database } from '../../db/schema';
import { deletePeer, deletePlaceholderCompany, forgetInstance, hasOwnCatalogueOrSales, knownInstances, rememberInstances, upsertPeer } from '../../db/queries/syncPeers';
import type { EngineContext } from '../domain/context';
import type { PeerAdded } from '../contract/sync';
import type { Vector } from './vector';
import { seal } from './secret';
import { SCHEMA_VERSION } from './core';
import { SyncError } from './errors';
import type { MediaSide } from './media';
import type { Replica } from './replica';
import type { Hello } from './wire';

/** This instance as one side of an exchange: its replica, number and the instances it knows. */
export interface LocalSide {
  replica: Replica;
  instanceNo: number;
  now(): number;
  knownInstances(): Record<string, number>;
  /** Image files fetched by hash after an exchange's rows (main/sync/media.ts); none without a data folder. */
  media?: MediaSide;
  /** This instance's earlier origins (restored from a backup: incarnation.ts); none when absent. */
  earlierOrigins?(): string[];
  /**
   * Called with the vector a pull answer carries, before its hello is made: an origin in it that the
   * hello would not name (a PostgreSQL hub process's new origin, migration 20261207_21, leased
   * after this process last read its earlier origins) has them read again, so the page's catalogue
   * ops never reach a desk before the hello that makes them the hub's.
   */
  beforeHello?(vector: Record<string, number>): Promise<void>;
  /** Called with every peer's hello before its page is applied (a peer's new incarnation is followed). */
  onPeerHello?(hello: Hello): Promise<void>;
}

export function helloOf(side: LocalSide): Hello {
  const earlier = side.earlierOrigins?.() ?? [];
  return { origin: side.replica.origin, instanceNo: side.instanceNo, catalogueOwner: side.replica.catalogueOwner(), schema: { min: 1, max: SCHEMA_VERSION }, knownInstances: side.knownInstances(), ...(earlier.length > 0 ? { incarnations: earlier } : {}) };
}

/** Refuses a peer that would make two instances issue the same ids, or that is a clone of us. */
export function checkPeer(side: LocalSide, peer: Hello): void {
  if (peer.origin === side.replica.origin) throw new SyncError('PAIRING', 'The peer has this instance’s own origin id: it is this instance itself (its own address), or one data folder was copied from the other. Pair with the hub’s address; a copied folder needs a fresh data folder.');
  // This instance's earlier selves (before a restore) hold its number rightly.
  const mine = new Set(side.earlierOrigins?.() ?? []);
  const clash = [[peer.origin, peer.instanceNo] as const, ...Object.entries(peer.knownInstances)].find(([o, n]) => o !== side.replica.origin && !mine.has(o) && n === side.instanceNo);
  if (clash) {
    const used = new Set([...Object.values(peer.knownInstances), peer.instanceNo]);
    let free = 2;
    while (used.has(free) && free < 999) free++;
    throw new SyncError('PAIRING', 
      `Instance number ${side.instanceNo} is already used by instance ${clash[0]} on the peer's side, so both would issue the same ids. ` +
        `If this folder has no sales yet, create a fresh data folder with \`tourdesk serve --instance ${free} --data-dir NEW\` and pair that; otherwise pair the other instance from a fresh folder.`,
    );
  }
}

/** A peer's address as stored: an http(s) URL without a trailing slash; anything else refused in words. */
export function peerUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SyncError('PEER_ADDRESS', `“${text}” is not a peer address: give the peer's URL, like http://192.168.1.20:8080`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SyncError('PEER_ADDRESS', `“${text}” is not a peer address: a peer is reached over http:// or https://`);
  if (url.username || url.password) throw new SyncError('PEER_ADDRESS', 'A peer address must not hold a user name or password: the peer’s key is given on its own (--key, or the Peer key field)');
  return url.toString().replace(/\/+$/, '');
}

/** The instances this one knows (by origin, their numbers), read again before each check. */
export interface KnownInstances {
  current: Record<string, number>;
  /** This instance's own earlier origins (incarnation.ts). */
  earlier: string[];
  refresh(): Promise<void>;
}

export function knownInstancesOf(db: Kysely<Database>, origin: string): KnownInstances {
  const known: KnownInstances = {
    current: {},
    earlier: [],
    refresh: async () => {
      known.current = await knownInstances(db);
      known.earlier = await earlierOrigins(db, origin);
    },
  };
  return known;
}

/**
 * The hub's side of the clash check: a caller whose instance number another instance that syncs
 * here already holds is refused before anything of it is recorded or taken (both would issue the
 * same ids). A number held only by an instance that has no op here (a desk whose pairing was
 * refused, recorded by an earlier build at its hello) is a leftover: it is forgotten, and the
 * desk that has synced here keeps syncing.
 */
export async function admit(db: Kysely<Database>, side: LocalSide, known: KnownInstances, caller: { origin: string; instanceNo: number; schema: { min: number; max: number }; incarnations?: string[] }): Promise<void> {
  const { replica } = side;
  // This instance's own origin (a copied folder) or number: refused like any clash, before anything is recorded.
  checkPeer(side, { ...caller, catalogueOwner: replica.catalogueOwner(), knownInstances: {} });
  if (caller.schema.min > SCHEMA_VERSION) {
    throw new SyncError('PAIRING', `The caller reads schema ${caller.schema.min} and newer only, and this instance writes ${SCHEMA_VERSION}: upgrade TourDesk here first.`);
  }
  await known.refresh();
  const holder = Object.entries(known.current).find(([origin, no]) => origin !== caller.origin && no === caller.instanceNo)?.[0];
  if (holder === undefined) return;
  if (caller.incarnations?.includes(holder)) {
    // The caller's earlier self (it was restored from a backup): the new one takes its place, no re-pairing.
    for (const earlier of caller.incarnations) {
      await recordSuccession(db, earlier, caller.origin, side.now());
      await retireEarlierSelf(db, earlier, side.now());
    }
    return;
  }
  const here = await replica.vector();
  if (!(holder in here) && caller.origin in here) {
    await forgetInstance(db, holder);
    await known.refresh();
    return;
  }
  throw new SyncError('PAIRING', 
    `Instance number ${caller.instanceNo} is already used by instance ${holder}, which syncs with this hub, so both would issue the same ids. ` +
      'Start this desk from a fresh data folder with another number (`tourdesk serve --instance N --data-dir NEW`) and pair that.',
  );
}

/**
 * Links a peer whose hello answered: checks that its identity does not clash, follows its hub, and
 * stores it with its key sealed.
 */
export async function pairWith(ctx: EngineContext, side: LocalSide, url: string, key: string, hello: Hello & { vector: Vector }, dataDir: string): Promise<PeerAdded> {
  const { replica } = side;
  checkPeer(side, hello);
  const owner = replica.catalogueOwner();
  let followsPeer = false;
  if (hello.catalogueOwner !== replica.origin && owner === replica.origin) {
    // This instance takes the peer's hub: it must not have a catalogue of its own beyond the placeholder company.
    if (await hasOwnCatalogueOrSales(ctx.db)) {
      throw new SyncError('PAIRING', 'This instance already has products or bookings of its own, and the peer follows a different catalogue. Pair from the other side (make this one the hub), or start this desk from a fresh data folder.');
    }
    // The placeholder company made at first start goes (the hub's comes with the first
    // exchange); its delete is still this instance's own op, so it is folded before the hub is set.
    await ctx.write({ keyId: null, role: 'system', resellerId: null, name: 'sync' }, async (tx) => deletePlaceholderCompany(tx.db));
    await replica.setHub(hello.catalogueOwner);
    followsPeer = true;
  } else if (hello.catalogueOwner !== replica.origin && hello.catalogueOwner !== owner) {
    throw new SyncError('PAIRING', 'The peer follows a different hub than this instance; pair each desk with the same hub.');
  }
  await upsertPeer(ctx.db, { url, key_sealed: seal(dataDir, key), peer_origin: hello.origin, peer_instance_no: hello.instanceNo, added_at: side.now(), peer_vector: JSON.stringify(hello.vector) });
  await rememberInstances(ctx.db, { ...hello.knownInstances, [hello.origin]: hello.instanceNo });
  return { url, origin: hello.origin, instanceNo: hello.instanceNo, hub: followsPeer };
}

/** Unlinks a peer: the address as it was stored (without a trailing slash), or null when there was no such peer. */
export async function unpair(db: Kysely<Database>, url: string): Promise<string | null> {
  const stored = url.replace(/\/+$/, '');
  return (await deletePeer(db, stored)) ? stored : null;
}
