import { imageSize as readImageSize } from 'image-size';

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
