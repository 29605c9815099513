import type { Image } from '../../shared/events.js';
import { base64Bytes } from '../llm/image-size.js';
import { clipOutput } from '../sandbox/clip-output.js';
import { workspaceBytes } from '../workspace/workspace-size.js';
import { WorkspaceRoot } from '../workspace/workspace-root.js';
import type { ToolResult } from '../tool/tool.js';

/** characters of a tool's output (or error, or unreadable arguments) kept in the stored event: ten model views */
export const MAX_STORED_RESULT_CHARS = 100_000;
/** bytes of images one tool result may carry: a few screenshots fit, a 100 MB picture does not */
export const MAX_RESULT_IMAGE_BYTES = 10 * 1024 * 1024;

/**
 * A result's images within MAX_RESULT_IMAGE_BYTES, in order; those past it are left out, each named in a note
 * (the model and the conversation both read the note), so one call cannot put a huge picture in memory or the store.
 */
export function withBoundedImages(result: ToolResult): ToolResult {
  if (!result.images?.length) return result;
  const kept: Image[] = [];
  const notes: string[] = [];
  let used = 0;
  for (const image of result.images) {
    const bytes = base64Bytes(image.data);
    if (used + bytes <= MAX_RESULT_IMAGE_BYTES) {
      kept.push(image);
      used += bytes;
    } else {
      notes.push(
        `[image ${image.mimeType} of ${bytes} bytes left out: a tool result may carry ${MAX_RESULT_IMAGE_BYTES} bytes of images]`,
      );
    }
  }
  if (notes.length === 0) return result;
  const note = notes.join('\n');
  const bounded = { ...result, images: kept.length > 0 ? kept : undefined };
  if (result.error !== undefined) return { ...bounded, error: `${result.error}\n${note}` };
  return { ...bounded, output: result.output ? `${result.output}\n${note}` : note };
}

/** Text as the stored event keeps it: past MAX_STORED_RESULT_CHARS, its start and end with a note of what was cut. */
export function storedText<T extends string | undefined>(text: T): T {
  return (text === undefined ? text : clipOutput(text, MAX_STORED_RESULT_CHARS)) as T;
}

/** where results cut for the conversation are kept whole, when the person asked for it (agent.keepFullResults) */
export const FULL_RESULTS_FOLDER = '.manus/results';
const MIB = 1024 * 1024;

export interface FullResultPlace {
  workspace: string;
  toolId: string;
  /** sandbox.workspaceQuotaMb; 0: no quota */
  quotaMb: number;
}

/**
 * Keeps the whole text of a result that `storedText` cuts as a workspace file (never through a link, only while the
 * workspace quota has room for it); the note says where it is, or why it was not kept.
 */
export function keepFullResult(text: string, place: FullResultPlace): string {
  const bytes = Buffer.byteLength(text);
  const relative = `${FULL_RESULTS_FOLDER}/${place.toolId}.txt`;
  try {
    if (place.quotaMb > 0 && workspaceBytes(place.workspace) + bytes > place.quotaMb * MIB) {
      return `[the whole output (${bytes} bytes) was not kept: it would take the workspace past its quota of ${place.quotaMb} MB]`;
    }
    WorkspaceRoot.with(place.workspace, (root) => root.createFile(relative.split('/'), Buffer.from(text)));
    return `[the whole output is kept in ${relative}]`;
  } catch (error) {
    return `[the whole output could not be kept: ${(error as Error).message}]`;
  }
}
