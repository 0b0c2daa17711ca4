import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { allImageFiles, findImageByHash, setImageHash, type StoredImage } from '../../db/queries/productImages';
import { renderVariants } from '../domain/catalogue/productImages';
import { imageToApi, VARIANT_EXT } from '../domain/catalogue/imageUrls';
import { DomainError } from '../domain/errors';
import { SYSTEM_ACTOR, type EngineContext } from '../domain/context';

/**
 * Images travel (docs/sync.md, "Images"): a product image's row syncs like any catalogue row and
 * names its original by content hash (product_images.content_hash); the files do not ride in ops.
 * After an exchange's rows are applied, an instance that has a row but not its files fetches the
 * original from the peer by hash (GET /v1/sync/media/{hash}), checks the hash, renders the variants
 * itself (the same sharp code an upload runs) and moves the folder in whole. A fetch that fails is
 * left for the next exchange; rows never wait for files.
 */
export const MEDIA_HASH = /^[0-9a-f]{64}$/;

export interface MediaFetchReport {
  fetched: number;
  /** Images still missing after this exchange, each with why (fetched again next exchange). */
  failed: { hash: string; reason: string }[];
}

export interface MediaSide {
  /** Fetches every image file this instance has a row but no file for, with `fetchOne` (the peer's route). */
  fetchMissing(fetchOne: (hash: string) => Promise<Buffer>): Promise<MediaFetchReport>;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Where an image's files live: its folder and its original (the Image shape's URLs, under the data folder). */
function filesOf(root: string, row: StoredImage): { dir: string; original: string } {
  return { dir: join(root, row.file_stem), original: join(root, imageToApi(row).itemUrl.slice('/media/'.length)) };
}

export function createMedia(ctx: EngineContext) {
  const root = () => (ctx.dataDir ? join(ctx.dataDir, 'media') : null);
  const notHere = (hash: string) => new DomainError('NOT_FOUND', `No image file with hash ${hash} is here`);

  return {
    /** The original file with this content hash, for a peer that lacks it. */
    async original(hash: string): Promise<{ bytes: Buffer; mimeType: string }> {
      if (!MEDIA_HASH.test(hash)) throw new DomainError('VALIDATION_ERROR', 'hash: must be a SHA-256 in hex (64 characters 0-9 and a-f)');
      const dir = root();
      const row = dir ? await findImageByHash(ctx.db, hash) : undefined;
      if (!dir || !row) throw notHere(hash);
      try {
        return { bytes: await readFile(filesOf(dir, row).original), mimeType: row.mime_type };
      } catch {
        // The row arrived here before its file (this instance fetches it too): the caller asks again later.
        throw notHere(hash);
      }
    },

    async fetchMissing(fetchOne: (hash: string) => Promise<Buffer>): Promise<MediaFetchReport> {
      const dir = root();
      const report: MediaFetchReport = { fetched: 0, failed: [] };
      if (!dir) return report;
      for (const row of await allImageFiles(ctx.db)) {
        if (row.content_hash === null || existsSync(filesOf(dir, row).original)) continue;
        try {
          await storeFetched(dir, row, row.content_hash, await fetchOne(row.content_hash));
          report.fetched++;
        } catch (error) {
          report.failed.push({ hash: row.content_hash, reason: error instanceof Error ? error.message : String(error) });
        }
      }
      return report;
    },

    /**
     * Images uploaded before content hashes (migration 20261202_37) get theirs from the files here,
     * one write each, so their rows sync with it and desks can fetch them. Only where the catalogue
     * is authored (a desk never writes catalogue rows). Answers how many were hashed.
     */
    async hashOlderUploads(): Promise<number> {
      const dir = root();
      if (!dir) return 0;
      let hashed = 0;
      for (const row of await allImageFiles(ctx.db)) {
        if (row.content_hash !== null) continue;
        let bytes: Buffer;
        try {
          bytes = await readFile(filesOf(dir, row).original);
        } catch {
          continue;
        }
        await ctx.write(SYSTEM_ACTOR, (tx) => setImageHash(tx.db, row.id, sha256(bytes)));
        hashed++;
      }
      return hashed;
    },
  };
}

/**
 * Checks the bytes against the hash, renders the variants and moves the whole folder in: the
 * original's presence is what says "here", so a crash half-way leaves the image still missing
 * (fetched again), never an original without its variants.
 */
async function storeFetched(root: string, row: StoredImage, hash: string, bytes: Buffer): Promise<void> {
  if (sha256(bytes) !== hash) throw new Error(`the peer's file for ${hash} does not have that hash`);
  const rendered = await renderVariants(bytes);
  const { dir, original } = filesOf(root, row);
  const partial = `${dir}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true, mode: 0o700 });
  for (const v of rendered.variants) await writeFile(join(partial, `${v.size}.${VARIANT_EXT[rendered.format.variant]}`), v.data, { mode: 0o600 });
  await writeFile(join(partial, basename(original)), bytes, { mode: 0o600 });
  await rm(dir, { recursive: true, force: true });
  await rename(partial, dir);
}

export type Media = ReturnType<typeof createMedia>;
