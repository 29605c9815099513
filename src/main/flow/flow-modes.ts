import type { ModeRunner, RunContext } from './mode-runner.js';
import { PRIMARY_AGENT, type FlowOptions } from './base-flow.js';
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

const MINUTE_MS = 60_000;

/**
 * A resumed turn keeps the agents and parallelism its plan was made with; the limits are the settings' of the flow
 * (`planning.*`, `planAct.*`) unless the turn names its own.
 */
function flowOptions(run: RunContext, type: FlowType): FlowOptions {
  const kind = type === 'plan_act' ? 'plan_act' : 'planning';
  const resumed = run.resuming
    ? run.store.plans
        .list(run.session.id)
        .filter((plan) => plan.kind === kind && plan.status !== 'completed')
        .at(-1)
    : undefined;
  const chosen = resumed?.agents ?? run.request.agents;
  const { planAct, planning } = run.settings;
  const limits =
    type === 'plan_act'
      ? { stepLimit: planAct.maxStepsPerPlan, timeoutMinutes: planAct.timeoutMinutes }
      : { stepLimit: planning.maxStepRuns, timeoutMinutes: planning.timeoutMinutes };
  return {
    agents: chosen?.length ? checkAgents(chosen, run.agentNames) : defaultAgents(type, run.agentNames),
    parallel: Math.max(1, resumed?.parallel ?? run.request.parallel ?? 1),
    stepLimit: run.request.maxStepRuns ?? limits.stepLimit,
    maxReplans: planAct.maxReplans,
    timeoutMs: (run.request.timeoutMinutes ?? limits.timeoutMinutes) * MINUTE_MS,
    ...(run.request.maxSteps ? { stepMaxSteps: run.request.maxSteps } : {}),
  };
}

export function flowModeRunner(type: FlowType): ModeRunner {
  return (run) => FlowFactory.create(type, run, flowOptions(run, type)).execute(run.request.task);
}
