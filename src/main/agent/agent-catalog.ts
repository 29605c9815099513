import type { ToolGate } from '../tool/tool-gate.js';
import type { AgentSettings } from '../../shared/settings/app-settings.js';
import type { AnyTool } from '../tool/tool.js';
import type { AgentDeps } from './base-agent.js';
import { Manus } from './manus.js';
import type { ToolCallAgent } from './toolcall-agent.js';

export interface AgentFactoryDeps extends Omit<AgentDeps, 'maxSteps'> {
  settings: AgentSettings;
  sandboxed: boolean;
  extraTools?: () => AnyTool[];
  gate?: ToolGate;
  maxSteps?: number;
}

type AgentConstructor = (deps: AgentFactoryDeps) => ToolCallAgent;

const agentConstructors = new Map<string, AgentConstructor>([
  [
    'manus',
    (deps) =>
      new Manus({
        ...deps,
        maxSteps: deps.maxSteps ?? deps.settings.maxSteps,
        maxObserve: deps.settings.maxObserve,
      }),
  ],
]);

/** Specialised agents (data_analysis, swe, browser...) register here. */
export function registerAgent(name: string, create: AgentConstructor): void {
  agentConstructors.set(name, create);
}

export function agentNames(): string[] {
  return [...agentConstructors.keys()];
}

export function createAgent(name: string, deps: AgentFactoryDeps): ToolCallAgent {
  const create = agentConstructors.get(name);
  if (!create) throw new Error(`Unknown agent "${name}". Known agents: ${agentNames().join(', ')}.`);
  return create(deps);
}
