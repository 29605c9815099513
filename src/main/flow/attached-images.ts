import { readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Image } from '../../shared/events.js';
import type { Plan } from '../store/plan-store.js';

/** the final message carries at most this many of the charts and pictures the steps made */
const MAX_IMAGES = 4;
const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
const IMAGE_TYPES: Record<string, Image['mimeType']> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
};

/** The images among the files the plan's steps produced (charts...), in plan order, for the final message. */
export function attachedImages(plan: Plan, workspace: string): Image[] {
  const paths = [...new Set(plan.steps.flatMap((step) => step.attachments))].filter(
    (path) => IMAGE_TYPES[extname(path).toLowerCase()],
  );
  const images: Image[] = [];
  for (const path of paths) {
    if (images.length >= MAX_IMAGES) break;
    try {
      const file = join(workspace, path);
      if (statSync(file).size > MAX_IMAGE_BYTES) continue;
      images.push({
        mimeType: IMAGE_TYPES[extname(path).toLowerCase()],
        data: readFileSync(file).toString('base64'),
        path,
      });
    } catch {
      // removed since the step wrote it
    }
  }
  return images;
}
