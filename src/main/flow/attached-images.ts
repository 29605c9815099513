import { extname } from 'node:path';
import type { Image } from '../../shared/events.js';
import type { Plan } from '../store/plan-store.js';
import { WorkspaceRoot } from '../workspace/workspace-root.js';

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
  return imagesAmong(
    plan.steps.flatMap((step) => step.attachments),
    workspace,
  );
}

/**
 * The images among workspace files (charts, pictures, a step's attachments), each once, in the order given, for a
 * message. Read through the workspace's held handle: a path out of it, a link or a special file is skipped, never opened.
 */
export function imagesAmong(files: readonly string[], workspace: string): Image[] {
  const paths = [...new Set(files)].filter((path) => IMAGE_TYPES[extname(path).toLowerCase()]);
  const images: Image[] = [];
  WorkspaceRoot.with(workspace, (root) => {
    for (const path of paths) {
      if (images.length >= MAX_IMAGES) break;
      try {
        const file = root.openFile(root.target(path).parts, 'read');
        try {
          if (file.stat.size > MAX_IMAGE_BYTES) continue;
          const data = file.read(MAX_IMAGE_BYTES).toString('base64');
          images.push({ mimeType: IMAGE_TYPES[extname(path).toLowerCase()], data, path });
        } finally {
          file.close();
        }
      } catch {
        // removed since the step wrote it, or refused
      }
    }
  });
  return images;
}
