import type { ProductImagesTable } from '../../../db/schema';

/** Formats we accept, the extension we store them under, and the format of their variants. SVG is refused: it can carry script. */
export const FORMATS: Record<string, { mime: string; ext: string; variant: 'jpeg' | 'png' | 'webp' }> = {
  jpeg: { mime: 'image/jpeg', ext: 'jpg', variant: 'jpeg' },
  png: { mime: 'image/png', ext: 'png', variant: 'png' },
  webp: { mime: 'image/webp', ext: 'webp', variant: 'webp' },
  gif: { mime: 'image/gif', ext: 'gif', variant: 'png' },
  tiff: { mime: 'image/tiff', ext: 'tif', variant: 'png' },
};
export const VARIANT_EXT = { jpeg: 'jpg', png: 'png', webp: 'webp' } as const;
const formatOfMime = (mime: string) => Object.values(FORMATS).find((f) => f.mime === mime) ?? FORMATS.png;

export interface Image {
  id: number;
  itemUrl: string;
  largeSizeUrl: string;
  mediumSizeUrl: string;
  thumbnailUrl: string;
}

/** The Image shape of a stored product image; files live under <dataDir>/media/<file_stem>/. */
export function imageToApi(row: Pick<ProductImagesTable, 'id' | 'file_stem' | 'mime_type'>): Image {
  const format = formatOfMime(row.mime_type);
  const variant = (size: number) => `/media/${row.file_stem}/${size}.${VARIANT_EXT[format.variant]}`;
  return { id: row.id, itemUrl: `/media/${row.file_stem}/original.${format.ext}`, largeSizeUrl: variant(1280), mediumSizeUrl: variant(480), thumbnailUrl: variant(240) };
}
