/** How much a tool can change: drives the approval policy. */
export type ToolRisk = 'read' | 'write' | 'execute' | 'network';

export type ToolGateDecision = { allowed: true } | { allowed: false; reason: string };

/** What the gate judges: a tool, or another action held to the same policy (an MCP server's sampling request). */
export interface GatedAction {
  name: string;
  risk: ToolRisk;
  /** the risk of one call when it depends on the arguments (viewing a file vs writing it) */
  riskOf?: (args: unknown) => ToolRisk;
  /** asked under every policy until the person always-allows it (spending on their behalf, as sampling does) */
  alwaysAsk?: boolean;
}

export interface ToolGateRequest {
  callId: string;
  tool: GatedAction;
  args: unknown;
  signal: AbortSignal;
}

/** Decides, before a tool runs, whether it may (the approval policy plugs in here). */
export type ToolGate = (request: ToolGateRequest) => Promise<ToolGateDecision>;

export const allowAllTools: ToolGate = async () => ({ allowed: true });
