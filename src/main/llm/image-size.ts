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

/** The number of bytes base64 text decodes to, without decoding it. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}
