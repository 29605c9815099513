import type { AnyTool } from '../tool/tool.js';

export type ToolGateDecision = { allowed: true } | { allowed: false; reason: string };

export interface ToolGateRequest {
  callId: string;
  tool: AnyTool;
  args: unknown;
  signal: AbortSignal;
}

/** Decides, before a tool runs, whether it may (the approval policy plugs in here). */
export type ToolGate = (request: ToolGateRequest) => Promise<ToolGateDecision>;

export const allowAllTools: ToolGate = async () => ({ allowed: true });
