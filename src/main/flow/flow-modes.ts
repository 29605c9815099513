import type { ModeRunner, RunContext } from './mode-runner.js';
import { DEFAULT_FLOW_STEP_LIMIT, DEFAULT_FLOW_TIMEOUT_MS, PRIMARY_AGENT, type FlowOptions } from './base-flow.js';
import { UnknownAgentError } from './flow-errors.js';
import { FlowFactory, type FlowType } from './flow-factory.js';

export const DEFAULT_FLOW_AGENTS = [PRIMARY_AGENT];

/** The agents a flow may use, checked against the agents the core knows. */
export function checkAgents(names: readonly string[] | undefined, known: readonly string[]): string[] {
  const wanted = names && names.length > 0 ? [...new Set(names.map((name) => name.trim()).filter(Boolean))] : [];
  const unknown = wanted.filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new UnknownAgentError(unknown, [...known]);
  return wanted.length > 0 ? wanted : DEFAULT_FLOW_AGENTS;
}

/**
 * Plan-Act routes each step to the agent its type names, so without a choice every agent of the core may run one
 * (the primary first, the default executor); the planning flow keeps to the primary agent.
 */
function defaultAgents(type: FlowType, known: readonly string[]): string[] {
  if (type !== 'plan_act') return DEFAULT_FLOW_AGENTS;
  const primaryFirst = [...known].sort((a, b) => Number(b === PRIMARY_AGENT) - Number(a === PRIMARY_AGENT));
  return primaryFirst.length > 0 ? primaryFirst : DEFAULT_FLOW_AGENTS;
}

/** A resumed turn keeps the agents and parallelism its plan was made with. */
function flowOptions(run: RunContext, type: FlowType): FlowOptions {
  const kind = type === 'plan_act' ? 'plan_act' : 'planning';
  const resumed = run.resuming
    ? run.store.plans
        .list(run.session.id)
        .filter((plan) => plan.kind === kind && plan.status !== 'completed')
        .at(-1)
    : undefined;
  const chosen = resumed?.agents ?? run.request.agents;
  const planAct = run.settings.planAct;
  return {
    agents: chosen?.length ? checkAgents(chosen, run.agentNames) : defaultAgents(type, run.agentNames),
    parallel: Math.max(1, resumed?.parallel ?? run.request.parallel ?? 1),
    stepLimit: type === 'plan_act' ? planAct.maxStepsPerPlan : DEFAULT_FLOW_STEP_LIMIT,
    maxReplans: planAct.maxReplans,
    timeoutMs: DEFAULT_FLOW_TIMEOUT_MS,
    ...(run.request.maxSteps ? { stepMaxSteps: run.request.maxSteps } : {}),
  };
}

export function flowModeRunner(type: FlowType): ModeRunner {
  return (run) => FlowFactory.create(type, run, flowOptions(run, type)).execute(run.request.task);
}
