import { imageSize as readImageSize } from 'image-size';
import type { Image } from '../../shared/events.js';

export interface ImageSize {
  width: number;
  height: number;
}

/** Width and height read from the header of a base64 image (PNG, JPEG, GIF, WebP and more); undefined when unreadable. */
export function imageSize(base64: string): ImageSize | undefined {
  try {
    const { width, height } = readImageSize(Buffer.from(base64, 'base64'));
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

/** The number of bytes base64 text decodes to, without decoding it. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

const MIME_BY_TYPE: Record<string, Image['mimeType']> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** The file as an image a model can be sent, judged by its content (not its name); undefined for anything else. */
export function asModelImage(base64: string, path?: string): Image | undefined {
  try {
    const mimeType = MIME_BY_TYPE[readImageSize(Buffer.from(base64, 'base64')).type ?? ''];
    return mimeType ? { mimeType, data: base64, ...(path ? { path } : {}) } : undefined;
  } catch {
    return undefined;
  }
}
