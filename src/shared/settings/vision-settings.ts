import { z } from 'zod';

/** How closely a model that sees looks at an image: `low` is a cheap 512-px look, `high` reads fine print. */
export const IMAGE_DETAILS = ['auto', 'low', 'high'] as const;
export const ImageDetailSchema = z.enum(IMAGE_DETAILS);
export type ImageDetail = z.infer<typeof ImageDetailSchema>;
