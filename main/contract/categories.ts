import { z } from 'zod';
import { bool, opt, text } from './common';
import { imageSchema } from './image';
import { paging, qBool, qString } from './query';

const categoryFields = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  description: opt(text(15_000)),
  visible: opt(bool),
  /** The same flag under the name some clients use. */
  isVisible: opt(bool),
  image: opt(imageSchema),
});

const sameVisibility = {
  check: (c: { visible?: boolean; isVisible?: boolean }) => c.visible === undefined || c.isVisible === undefined || c.visible === c.isVisible,
  params: { message: 'visible and isVisible disagree; send one of them', path: ['visible'] },
};

export const categoryBodySchema = categoryFields.refine(sameVisibility.check, sameVisibility.params);
/** PUT: fields left out keep their value. */
export const categoryUpdateSchema = categoryFields.partial().refine(sameVisibility.check, sameVisibility.params);

export const categorySearchQuery = z.object({ search: qString.optional(), visible: qBool.optional(), ...paging });

export type CategoryBody = z.infer<typeof categoryBodySchema>;
export type CategoryUpdateBody = z.infer<typeof categoryUpdateSchema>;
export type CategorySearch = z.infer<typeof categorySearchQuery>;
