import type { AgentSettings } from '../../shared/settings/app-settings.js';
import type { ToolGate } from '../tool/tool-gate.js';
import type { AnyTool } from '../tool/tool.js';
import type { AgentDeps } from './base-agent.js';
import { BrowserAgent } from './browser-agent.js';
import { DATA_ANALYSIS_MAX_OBSERVE, DataAnalysisAgent } from './data-analysis.js';
import { Manus } from './manus.js';
import { SweAgent } from './swe.js';
import type { ToolCallAgent } from './toolcall-agent.js';

export interface AgentFactoryDeps extends Omit<AgentDeps, 'maxSteps'> {
  settings: AgentSettings;
  sandboxed: boolean;
  extraTools?: () => AnyTool[];
  gate?: ToolGate;
  maxSteps?: number;
}

/** Makes one agent of a session from what the session gives it. */
export type AgentConstructor = (deps: AgentFactoryDeps) => ToolCallAgent;

/** The agents a core can run, by the name sessions, flows and `[TAG]`s use. */
export type AgentCatalog = Readonly<Record<string, AgentConstructor>>;

/** An agent's budgets: the caller's step limit (a flow step's) or the settings', and the settings' output limit. */
function withBudgets(deps: AgentFactoryDeps, maxObserve = deps.settings.maxObserve) {
  return { ...deps, maxSteps: deps.maxSteps ?? deps.settings.maxSteps, maxObserve };
}

/** The agents of the seeds: the general one and the specialists a flow hands steps to. */
export const BUILTIN_AGENTS: AgentCatalog = {
  manus: (deps) => new Manus(withBudgets(deps)),
  // a data analyst reads wide tables and long logs: it sees at least DATA_ANALYSIS_MAX_OBSERVE characters of output
  data_analysis: (deps) =>
    new DataAnalysisAgent(withBudgets(deps, Math.max(deps.settings.maxObserve, DATA_ANALYSIS_MAX_OBSERVE))),
  swe: (deps) => new SweAgent(withBudgets(deps)),
  browser: (deps) => new BrowserAgent(withBudgets(deps)),
};

export function createAgent(catalog: AgentCatalog, name: string, deps: AgentFactoryDeps): ToolCallAgent {
  const create = catalog[name];
  if (!create) throw new Error(`Unknown agent "${name}". Known agents: ${Object.keys(catalog).join(', ')}.`);
  return create(deps);
}
