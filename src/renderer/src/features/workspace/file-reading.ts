/** A dropped file as it travels over the contract: base64, size-limited (the core checks again). */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

export interface Attachment {
  name: string;
  size: number;
  data: string;
}

export class AttachmentTooLarge extends Error {
  constructor(readonly fileName: string) {
    super(`${fileName} is larger than 10 MB`);
  }
}

export async function readAttachment(file: File): Promise<Attachment> {
  if (file.size > MAX_ATTACHMENT_BYTES) throw new AttachmentTooLarge(file.name);
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  const chunk = 0x8000;
  for (let index = 0; index < bytes.length; index += chunk) {
    binary += String.fromCharCode(...bytes.subarray(index, index + chunk));
  }
  return { name: file.name, size: file.size, data: btoa(binary) };
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}
