import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { ProductImagesTable } from '../../../db/schema';
import { deleteProductImage, findProductImageStem, insertProductImage, nextImagePosition } from '../../../db/queries/productImages';
import type { Actor, EngineContext } from '../context';
import type { ProductsService } from './products';
import { DomainError } from '../errors';
import { FORMATS, VARIANT_EXT, imageToApi, type Image } from './imageUrls';

/** Largest upload accepted, in bytes (15 MiB). */
export const MAX_IMAGE_BYTES = 15 * 1024 * 1024;
/** Decoded size limit (a small file can claim a huge canvas): 60 megapixels. */
export const MAX_IMAGE_PIXELS = 60_000_000;
/** The spec's variants: longest side in pixels, never upscaled. */
export const IMAGE_VARIANTS = [1280, 480, 240] as const;

const notAnImage = () => new DomainError('VALIDATION_ERROR', 'The upload is not a readable image (JPEG, PNG, WebP, GIF or TIFF)');

/** Decodes the upload and renders every variant, or throws VALIDATION_ERROR; touches no file. */
export async function renderVariants(bytes: Buffer) {
  if (bytes.length === 0) throw new DomainError('VALIDATION_ERROR', 'The upload is empty');
  if (bytes.length > MAX_IMAGE_BYTES) throw new DomainError('PAYLOAD_TOO_LARGE', `An image may be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MiB`);
  let meta: sharp.Metadata;
  try {
    // The header alone (no pixels decoded), so an oversize canvas is named as such below.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw notAnImage();
  }
  const format = meta.format ? FORMATS[meta.format] : undefined;
  if (!format || !meta.width || !meta.height) throw notAnImage();
  if (meta.width * meta.height > MAX_IMAGE_PIXELS) throw new DomainError('PAYLOAD_TOO_LARGE', `An image may have at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`);
  try {
    // Decode and shrink the original once (EXIF orientation applied); the smaller variants are
    // resized from those 1280 px pixels rather than from the full-size original.
    const fit = (size: number) => ({ width: size, height: size, fit: 'inside' as const, withoutEnlargement: true });
    const input = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' });
    const large = await input.rotate().resize(fit(IMAGE_VARIANTS[0])).raw().toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: large.info.width, height: large.info.height, channels: large.info.channels } };
    const variants = await Promise.all(
      IMAGE_VARIANTS.map(async (size) => ({ size, data: await sharp(large.data, raw).resize(fit(size)).toFormat(format.variant).toBuffer() })),
    );
    const oriented = (meta.orientation ?? 1) >= 5;
    return { format, width: oriented ? meta.height : meta.width, height: oriented ? meta.width : meta.height, variants };
  } catch {
    throw notAnImage();
  }
}

export function createProductImages(ctx: EngineContext, products: ProductsService) {
  const mediaDir = () => {
    if (!ctx.dataDir) throw new DomainError('BUSINESS_RULE', 'This TourDesk runs without a data folder; images cannot be stored');
    return join(ctx.dataDir, 'media');
  };

  return {
    /**
     * Stores an upload: decode and render outside the transaction, write the files, then insert the
     * row; if the row cannot be written the files are removed again, so nothing is left behind.
     */
    async add(productCode: string, upload: { bytes: Buffer; filename?: string }, actor: Actor): Promise<Image> {
      const root = mediaDir();
      await products.rowOrThrow(ctx.db, productCode);
      const rendered = await renderVariants(upload.bytes);
      const stem = `${productCode.toLowerCase()}-${ctx.ids.token(8).toLowerCase()}`;
      const dir = join(root, stem);
      await mkdir(dir, { recursive: true });
      try {
        await writeFile(join(dir, `original.${rendered.format.ext}`), upload.bytes);
        for (const v of rendered.variants) await writeFile(join(dir, `${v.size}.${VARIANT_EXT[rendered.format.variant]}`), v.data);
        const row = await ctx.write(actor, async (tx) => {
          await products.rowOrThrow(tx.db, productCode);
          const position = await nextImagePosition(tx.db, productCode);
          const values: ProductImagesTable = {
            id: ctx.ids.nextId(),
            product_code: productCode,
            position,
            file_stem: stem,
            original_name: upload.filename?.slice(0, 255) ?? null,
            mime_type: rendered.format.mime,
            width: rendered.width,
            height: rendered.height,
            created_at: tx.now,
            // Peers fetch the original by it (GET /v1/sync/media/{hash}): the row syncs, the files do not.
            content_hash: createHash('sha256').update(upload.bytes).digest('hex'),
          };
          await insertProductImage(tx.db, values);
          await tx.journal('productImage', values.id, 'create', { productCode, fileStem: stem, mimeType: values.mime_type, width: values.width, height: values.height });
          return values;
        });
        return imageToApi(row);
      } catch (error) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
    },

    /** Removes the row, then its files (a file left by a crash in between is harmless). */
    async remove(productCode: string, mediaId: number, actor: Actor): Promise<void> {
      const root = mediaDir();
      const stem = await ctx.write(actor, async (tx) => {
        await products.rowOrThrow(tx.db, productCode);
        const stem = await findProductImageStem(tx.db, productCode, mediaId);
        if (stem === undefined) throw new DomainError('NOT_FOUND', `Product ${productCode} has no image ${mediaId}`);
        await deleteProductImage(tx.db, mediaId);
        await tx.journal('productImage', mediaId, 'delete', { productCode });
        return stem;
      });
      await rm(join(root, stem), { recursive: true, force: true });
    },
  };
}

export type ProductImagesService = ReturnType<typeof createProductImages>;
