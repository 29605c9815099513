import type { RunContext } from './mode-runner.js';
import type { BaseFlow, FlowOptions } from './base-flow.js';
import { PlanActFlow } from './plan-act-flow.js';
import { PlanningFlow } from './planning-flow.js';

export const FLOW_TYPES = ['planning', 'plan_act'] as const;
export type FlowType = (typeof FLOW_TYPES)[number];

const flowConstructors: Record<FlowType, new (run: RunContext, options: FlowOptions) => BaseFlow> = {
  planning: PlanningFlow,
  plan_act: PlanActFlow,
};

/** Builds the flow of a type for one turn of a session. */
export const FlowFactory = {
  create(type: FlowType, run: RunContext, options: FlowOptions): BaseFlow {
    return new flowConstructors[type](run, options);
  },
};
