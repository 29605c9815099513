import { createHash } from 'node:crypto';

const MAX_TOOL_NAME = 64;
const HASH_LENGTH = 8;

/** `mcp_{server}_{tool}` in the alphabet and length providers accept for function names. */
export function mcpToolName(server: string, tool: string): string {
  const full = `mcp_${server}_${tool}`.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (full.length <= MAX_TOOL_NAME) return full;
  // a cut name keeps a hash of the whole one so two long names stay distinct
  const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, HASH_LENGTH);
  return `${full.slice(0, MAX_TOOL_NAME - HASH_LENGTH - 1)}_${hash}`;
}
