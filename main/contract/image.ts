import { z } from 'zod';
import { int, opt, text } from './common';

/** The Image shape of the spec (id, itemUrl, largeSizeUrl, mediumSizeUrl, thumbnailUrl), as categories and extras carry it. */
export const imageSchema = z.object({
  id: opt(int),
  itemUrl: opt(text(2000)),
  largeSizeUrl: opt(text(2000)),
  mediumSizeUrl: opt(text(2000)),
  thumbnailUrl: opt(text(2000)),
});

