import type { AnyTool } from './tool.js';

export type ToolGateDecision = { allowed: true } | { allowed: false; reason: string };

/** What the gate judges: a tool, or another action held to the same policy (an MCP server's sampling request). */
export type GatedAction = Pick<AnyTool, 'name' | 'risk' | 'riskOf'>;

export interface ToolGateRequest {
  callId: string;
  tool: GatedAction;
  args: unknown;
  signal: AbortSignal;
}

/** Decides, before a tool runs, whether it may (the approval policy plugs in here). */
export type ToolGate = (request: ToolGateRequest) => Promise<ToolGateDecision>;

export const allowAllTools: ToolGate = async () => ({ allowed: true });
