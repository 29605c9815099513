import { z } from 'zod';
import { ElicitationFormSchema } from './elicitation-form.js';
import { ToolKindSchema, ToolResultDataSchema } from './tool-result.js';
import { SESSION_MODES, SESSION_STATUSES } from './session-vocabulary.js';

/** Everything the core emits is one of these. The store appends it (assigning `seq`), then subscribers see it. */

export {
  LIVE_SESSION_STATUSES,
  SESSION_MODES,
  SESSION_STATUSES,
  isLiveStatus,
  type SessionMode,
  type SessionStatus,
} from './session-vocabulary.js';
export const SessionStatusSchema = z.enum(SESSION_STATUSES);
export const SessionModeSchema = z.enum(SESSION_MODES);

export const UsageTotalsSchema = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  cost: z.number().nonnegative().optional(),
});
export type UsageTotals = z.infer<typeof UsageTotalsSchema>;

export const SessionInfoSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: SessionStatusSchema,
  mode: SessionModeSchema,
  model: z.string(),
  workspace: z.string(),
  usage: UsageTotalsSchema,
  /** flows: the agents its steps may run on, as the person last chose them */
  agents: z.array(z.string()).optional(),
  /** flows: how many independent plan steps run at the same time */
  parallel: z.number().int().positive().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

export const AGENT_STATES = ['IDLE', 'RUNNING', 'FINISHED', 'ERROR'] as const;
export const AgentStateSchema = z.enum(AGENT_STATES);
export type AgentState = z.infer<typeof AgentStateSchema>;

export const ImageSchema = z.object({
  mimeType: z.enum(['image/png', 'image/jpeg', 'image/webp', 'image/gif']),
  /** base64, no data: prefix */
  data: z.string(),
  /** where the image was saved in the workspace, when it was */
  path: z.string().optional(),
});
export type Image = z.infer<typeof ImageSchema>;

export const PLAN_STEP_STATUSES = ['not_started', 'in_progress', 'completed', 'blocked'] as const;
export const PlanStepStatusSchema = z.enum(PLAN_STEP_STATUSES);
export type PlanStepStatus = z.infer<typeof PlanStepStatusSchema>;

/** A step's own result as the seed's Step model has it (absent on events stored before steps carried them). */
const StepResultFields = {
  /** the step's result in words, never the executor's JSON */
  result: z.string().optional(),
  /** workspace files the step produced, relative to the workspace */
  attachments: z.array(z.string()).optional(),
  error: z.string().optional(),
};

export const PlanSnapshotSchema = z.object({
  planId: z.string(),
  title: z.string(),
  /** Plan-Act: what the plan is for, the language it answers in, and the planner's note to the person */
  goal: z.string().optional(),
  language: z.string().optional(),
  message: z.string().optional(),
  steps: z.array(
    z.object({
      /** the planner's id of the step (Plan-Act), stable across replans */
      id: z.string().optional(),
      text: z.string(),
      status: PlanStepStatusSchema,
      notes: z.string(),
      agent: z.string().optional(),
      dependsOn: z.array(z.number().int()).optional(),
      ...StepResultFields,
    }),
  ),
  /** the plan as text, in the form the model reads */
  text: z.string(),
});
export type PlanSnapshot = z.infer<typeof PlanSnapshotSchema>;

const envelope = {
  sessionId: z.string(),
  /** per-session sequence number assigned by the store; 0 before it is stored */
  seq: z.number().int().nonnegative(),
  /** ms since epoch */
  ts: z.number(),
};

export const SessionEventSchema = z.object({
  ...envelope,
  type: z.literal('session'),
  action: z.enum(['created', 'updated', 'status']),
  session: SessionInfoSchema,
});

export const AgentStateEventSchema = z.object({
  ...envelope,
  type: z.literal('agent_state'),
  agent: z.string(),
  state: AgentStateSchema,
  phase: z.enum(['thinking', 'acting', 'idle']),
  step: z.number().int().nonnegative(),
  maxSteps: z.number().int().positive(),
});

export const MessageEventSchema = z.object({
  ...envelope,
  type: z.literal('message'),
  messageId: z.string(),
  agent: z.string().optional(),
  role: z.enum(['user', 'assistant', 'system']),
  /** with delta=true a chunk of a streamed reply; otherwise the whole text */
  text: z.string(),
  delta: z.boolean(),
  images: z.array(ImageSchema).optional(),
  /** a flow's executor wrote it while working on this step */
  step: z.object({ planId: z.string(), stepIndex: z.number().int().nonnegative() }).optional(),
  /**
   * workspace files, relative to the workspace: those a message presents (a step's results), or, on a user's message,
   * the files attached to it (the model is told where they are)
   */
  attachments: z.array(z.string()).optional(),
});

export const ToolEventSchema = z.object({
  ...envelope,
  type: z.literal('tool'),
  /** the provider's id of the call: several providers reuse one (call_0) across steps, so nothing is keyed on it */
  callId: z.string(),
  /** the app's own id of the call, unique in the session: cards, reloads, reviews and exports key on it (absent on events stored before it was added: callId stands in) */
  toolId: z.string().optional(),
  agent: z.string().optional(),
  name: z.string(),
  /** absent on events stored before tools declared their kind: those show in the generic view */
  kind: ToolKindSchema.optional(),
  args: z.unknown(),
  status: z.enum(['calling', 'done', 'error']),
  output: z.string().optional(),
  /** the structured result for the tool's view, when the tool has one */
  data: ToolResultDataSchema.optional(),
  error: z.string().optional(),
  images: z.array(ImageSchema).optional(),
  durationMs: z.number().nonnegative().optional(),
  /** partial progress of a running call (e.g. streamed bash output) */
  progress: z.string().optional(),
});

export const PlanEventSchema = z.object({
  ...envelope,
  type: z.literal('plan'),
  action: z.enum(['created', 'updated', 'completed']),
  plan: PlanSnapshotSchema,
});

export const StepEventSchema = z.object({
  ...envelope,
  type: z.literal('step'),
  action: z.enum(['started', 'completed', 'failed', 'blocked']),
  planId: z.string(),
  stepIndex: z.number().int().nonnegative(),
  description: z.string(),
  agent: z.string().optional(),
  ...StepResultFields,
});

/** Where a Plan-Act turn is: the planner planning or updating the plan, a step executing, or the end it reached. */
export const FLOW_PHASES = ['planning', 'executing', 'updating', 'completed', 'failed'] as const;
export const FlowPhaseSchema = z.enum(FLOW_PHASES);
export type FlowPhase = z.infer<typeof FlowPhaseSchema>;

export const PhaseEventSchema = z.object({
  ...envelope,
  type: z.literal('phase'),
  phase: FlowPhaseSchema,
  /** the plan the phase is about (absent while the first plan is being made) */
  planId: z.string().optional(),
});

export const TitleEventSchema = z.object({
  ...envelope,
  type: z.literal('title'),
  title: z.string(),
});

export const UsageEventSchema = z.object({
  ...envelope,
  type: z.literal('usage'),
  model: z.string(),
  request: UsageTotalsSchema,
  session: UsageTotalsSchema,
});

export const AskEventSchema = z.object({
  ...envelope,
  type: z.literal('ask'),
  askId: z.string(),
  kind: z.enum(['question', 'approval', 'elicitation']),
  question: z.string(),
  /** for approvals: the tool call waiting */
  tool: z.object({ callId: z.string(), name: z.string(), args: z.unknown() }).optional(),
  /** for elicitations: the form an MCP server asks the person to fill; the answer is its JSON (elicitation-form.ts) */
  form: ElicitationFormSchema.optional(),
  /** set on the event that records the answer */
  answer: z.string().optional(),
  status: z.enum(['waiting', 'answered', 'cancelled']),
});

/**
 * What a coded message fills in (a model's name, seconds to wait...): the renderer translates the code with these;
 * the English text stays beside them for the CLI and for sessions stored before codes had parameters.
 */
export const MessageParamsSchema = z.record(z.string(), z.union([z.string(), z.number()]));
export type MessageParams = z.infer<typeof MessageParamsSchema>;

export const NoticeEventSchema = z.object({
  ...envelope,
  type: z.literal('notice'),
  level: z.enum(['info', 'warning']),
  code: z.string(),
  text: z.string(),
  params: MessageParamsSchema.optional(),
});

export const ErrorEventSchema = z.object({
  ...envelope,
  type: z.literal('error'),
  code: z.string(),
  message: z.string(),
  /** how to fix it, in one line, when we know */
  hint: z.string().optional(),
  params: MessageParamsSchema.optional(),
});

export const DoneEventSchema = z.object({
  ...envelope,
  type: z.literal('done'),
  status: SessionStatusSchema,
  result: z.string(),
});

export const CoreEventSchema = z.discriminatedUnion('type', [
  SessionEventSchema,
  AgentStateEventSchema,
  MessageEventSchema,
  ToolEventSchema,
  PlanEventSchema,
  StepEventSchema,
  PhaseEventSchema,
  TitleEventSchema,
  UsageEventSchema,
  AskEventSchema,
  NoticeEventSchema,
  ErrorEventSchema,
  DoneEventSchema,
]);
export type CoreEvent = z.infer<typeof CoreEventSchema>;
export type CoreEventType = CoreEvent['type'];
export type CoreEventOf<T extends CoreEventType> = Extract<CoreEvent, { type: T }>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** What emitters hand in: the bus stamps `ts` and the store assigns `seq`. */
export type CoreEventInput = DistributiveOmit<CoreEvent, 'seq' | 'ts'>;
