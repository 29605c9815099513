import type { AppSettings } from '../../shared/settings/app-settings.js';
import { mcpToolApproval } from '../mcp/mcp-approval.js';
import type { GatedAction, ToolGate, ToolGateDecision } from '../tool/tool-gate.js';
import type { HumanChannel } from '../human/human-channel.js';
import type { ToolRisk } from '../tool/tool-gate.js';

/** Tools that only talk with the person or end the run: never worth a confirmation. */
const NEVER_ASK = new Set(['terminate', 'ask_human']);
const RISKY: ReadonlySet<ToolRisk> = new Set(['write', 'execute', 'network']);

export type ApprovalAnswer = 'allow' | 'deny' | 'always';

/** "y", "yes", "approve"… allow once; "a", "always"… allow from now on; anything else denies. */
export function parseApprovalAnswer(answer: string): ApprovalAnswer {
  const word = answer.trim().toLowerCase();
  if (['a', 'always', 'always allow', 'always_allow'].includes(word)) return 'always';
  if (['y', 'yes', 'ok', 'allow', 'approve', 'approved'].includes(word)) return 'allow';
  return 'deny';
}

export interface ApprovalGateOptions {
  settings: () => Pick<AppSettings, 'approval' | 'mcp'>;
  human: HumanChannel;
  /** the person chose "always allow" for a tool: remember it in the settings */
  rememberAlwaysAllow?: (toolName: string) => void;
}

/**
 * The approval policy, enforced in the core before a tool runs: `auto` runs everything, `risky` asks before
 * tools that execute, write or open a new site, `all` asks before every tool. A denial reaches the model as
 * the tool's result.
 */
export function createApprovalGate(options: ApprovalGateOptions): ToolGate {
  const alwaysAllowed = new Set<string>();
  const approvedHosts = new Set<string>();

  const needsApproval = (tool: GatedAction, args: unknown): boolean => {
    const { approval: settings, mcp } = options.settings();
    if (NEVER_ASK.has(tool.name) || alwaysAllowed.has(tool.name) || settings.alwaysAllow.includes(tool.name)) {
      return false;
    }
    if (tool.alwaysAsk) return true;
    // a choice the person made for this MCP tool overrides the global policy
    const perTool = mcpToolApproval(mcp, tool.name);
    if (perTool) return perTool === 'ask';
    if (settings.policy === 'auto') return false;
    if (settings.policy === 'all') return true;
    const risk = tool.riskOf?.(args) ?? tool.risk;
    if (!RISKY.has(risk)) return false;
    const host = risk === 'network' ? hostOf(args) : undefined;
    return !(host && approvedHosts.has(host));
  };

  return async ({ callId, tool, args, signal }): Promise<ToolGateDecision> => {
    if (!needsApproval(tool, args)) return { allowed: true };
    let answer: string;
    try {
      answer = await options.human.ask({
        kind: 'approval',
        question: `Allow ${tool.name} to run?`,
        tool: { callId, name: tool.name, args },
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      return { allowed: false, reason: `it needs approval and nobody can give it here (${(error as Error).message})` };
    }
    const decision = parseApprovalAnswer(answer);
    if (decision === 'deny')
      return {
        allowed: false,
        reason:
          answer.trim() && !['n', 'no', 'deny'].includes(answer.trim().toLowerCase())
            ? `the person said: ${answer.trim()}`
            : 'the person denied it',
      };
    const host = hostOf(args);
    if (host) approvedHosts.add(host);
    if (decision === 'always') {
      alwaysAllowed.add(tool.name);
      options.rememberAlwaysAllow?.(tool.name);
    }
    return { allowed: true };
  };
}

function hostOf(args: unknown): string | undefined {
  const url = args && typeof args === 'object' && 'url' in args ? (args as { url?: unknown }).url : undefined;
  if (typeof url !== 'string') return undefined;
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
