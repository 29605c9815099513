import type { SessionMode } from '../../shared/events.js';
import { runAgentMode } from './agent-mode.js';
import { flowModeRunner } from './flow-modes.js';
import type { ModeRunner } from './mode-runner.js';

/** How each session mode runs a turn. */
export type ModeCatalog = Readonly<Record<SessionMode, ModeRunner>>;

/** One agent's think/act loop, the planning flow, and Plan-Act. */
export const BUILTIN_MODES: ModeCatalog = {
  agent: runAgentMode,
  planning: flowModeRunner('planning'),
  plan_act: flowModeRunner('plan_act'),
};
