import '../agent/data-analysis.js';
import '../agent/swe.js';
import '../agent/browser-agent.js';
import { registerModeRunner } from '../session/session-service.js';
import { flowModeRunner } from './flow-modes.js';

// the session service runs 'planning' and 'plan_act' turns through the flows; importing this module wires them in
registerModeRunner('planning', flowModeRunner('planning'));
registerModeRunner('plan_act', flowModeRunner('plan_act'));

export { FlowFactory, FLOW_TYPES, type FlowType } from './flow-factory.js';
export { checkAgents } from './flow-modes.js';
