import type { ToolKind } from '../../shared/tool-kind.js';
import { BROWSER_TOOL_NAMES } from '../agent/browser-agent.js';
import { DATA_ANALYSIS_TOOL_NAMES } from '../agent/data-analysis.js';
import { MANUS_TOOL_NAMES } from '../agent/manus.js';
import { SWE_TOOL_NAMES } from '../agent/swe.js';
import { pickTools } from '../tool/builtin-tools.js';
import { AGENT_MODE_AGENT } from './agent-mode.js';
import { DEFAULT_FLOW_AGENTS } from './flow-modes.js';
import type { StartTaskRequest } from './mode-runner.js';

/** The session parts a turn will likely need, started with the turn so that its first tool call finds them warm. */
export interface TurnParts {
  sandbox: boolean;
  browser: boolean;
}

/** the built-in agents' own tools (an agent of another catalog is not known here: nothing is started for it) */
const AGENT_TOOL_NAMES: Readonly<Record<string, readonly string[]>> = {
  manus: MANUS_TOOL_NAMES,
  data_analysis: DATA_ANALYSIS_TOOL_NAMES,
  swe: SWE_TOOL_NAMES,
  browser: BROWSER_TOOL_NAMES,
};

const SANDBOX_KINDS: ReadonlySet<ToolKind> = new Set(['python', 'bash']);

/** The agents a turn runs: the agent mode's one, or the flow's (a resumed flow is taken to keep the default ones). */
function turnAgents(request: StartTaskRequest): string[] {
  if ((request.mode ?? 'agent') === 'agent') return [AGENT_MODE_AGENT];
  const named = (request.agents ?? []).map((name) => name.trim()).filter(Boolean);
  return named.length > 0 ? named : DEFAULT_FLOW_AGENTS;
}

/**
 * The sandbox when an agent of the turn runs code or commands; the browser only when an agent works through the
 * browser alone: a generalist with a sandbox (manus) mostly codes, and a Chromium started for each of its turns would
 * cost more than the first page load it saves.
 */
export function partsForTurn(request: StartTaskRequest): TurnParts {
  const kinds = turnAgents(request).map(
    (agent) => new Set(pickTools(AGENT_TOOL_NAMES[agent] ?? []).map((tool) => tool.kind)),
  );
  const runsCode = (agentKinds: Set<ToolKind>) => [...agentKinds].some((kind) => SANDBOX_KINDS.has(kind));
  return {
    sandbox: kinds.some(runsCode),
    browser: kinds.some((agentKinds) => agentKinds.has('browser') && !runsCode(agentKinds)),
  };
}
