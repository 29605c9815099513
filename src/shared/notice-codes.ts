import type { CoreEventInput } from './events.js';

/**
 * Every notice the core emits, with the values its translation fills in. The renderer translates a notice by its
 * code and these values; its English text stays beside them for the CLI, exports and sessions stored before.
 * A value is 'string' or 'number' ('?' when some emissions leave it out), or the list of codes a `reason` may be:
 * a notice with a reason is read with the text `<code>_<reason>`, one without it with the code's own text.
 */
export const NOTICE_PARAMS = {
  // the model client (src/main/llm/client.ts)
  retrying: { reason: 'string', retryAt: 'number', attempt: 'number', maxAttempts: 'number' },
  image_dropped: {
    count: 'number',
    model: 'string',
    reason: ['no_vision_model', 'vision_model_unusable'],
    visionModel: 'string?',
  },
  no_tool_support: { model: 'string' },
  text_tool_calls: { model: 'string' },
  context_fitted: { model: 'string', shortened: 'number?', dropped: 'number?' },
  // agents
  agent_stuck: { agent: 'string' },
  tool_name_clash: { tool: 'string' },
  image_description_failed: { index: 'number', count: 'number', source: 'string', error: 'string' },
  // sessions and the app
  resumed: {},
  local_sandbox: {},
  settings_problem: { setting: 'string' },
  settings_unreadable: {},
  mcp_failed: { server: 'string', error: 'string', reason: ['command_not_found', 'sign_in_required', 'unconfirmed'] },
  // MCP servers asking through the human channel
  mcp_elicitation_declined: { server: 'string', message: 'string' },
  mcp_elicitation_invalid: { server: 'string', problems: 'string' },
  mcp_sampling_declined: { server: 'string' },
  mcp_sampling_answer: { server: 'string', answer: 'string' },
  // flows
  nothing_to_resume: { plan: 'string' },
  flow_resumed: { step: 'string', description: 'string' },
  flow_finishing: {},
  flow_step_limit: { limit: 'number' },
  flow_timeout: { minutes: 'number' },
  planner_retry: { error: 'string' },
  default_plan: { error: 'string' },
  replan_failed: { error: 'string' },
  replan_refused: { error: 'string' },
  replanned: {
    step: 'string',
    description: 'string',
    error: 'string',
    replan: 'number',
    limit: 'number',
    steps: 'number',
  },
  attachments_refused: { files: 'string' },
  plan_timeout: {},
  plan_step_limit: { limit: 'number' },
  plan_replan_limit: { step: 'string', description: 'string', error: 'string', limit: 'number' },
  plan_replan_failed: { step: 'string', description: 'string', error: 'string', reason: 'string' },
  plan_goal_unreachable: { step: 'string', description: 'string', error: 'string' },
  summary_fallback: { reason: ['empty', 'failed'], error: 'string?' },
  summary_report: { reason: ['missing', 'failed'], agent: 'string?', error: 'string?' },
} as const satisfies Record<string, Record<string, ParamKind>>;

type ParamKind = 'string' | 'number' | 'string?' | 'number?' | readonly string[];

export type NoticeCode = keyof typeof NOTICE_PARAMS;
export const NOTICE_CODES = Object.keys(NOTICE_PARAMS) as NoticeCode[];

type ValueOf<K> = K extends readonly (infer R)[] ? R : K extends 'number' | 'number?' ? number : string;
type Optional<S> = { [K in keyof S]: S[K] extends `${string}?` | readonly string[] ? K : never }[keyof S];
type ParamsOf<S> = { [K in Exclude<keyof S, Optional<S>>]: ValueOf<S[K]> } & { [K in Optional<S>]?: ValueOf<S[K]> };

/** The values each notice code fills in. */
export type NoticeParams = { [C in NoticeCode]: ParamsOf<(typeof NOTICE_PARAMS)[C]> };

/** A notice as its emitter gives it: code, English text, and the values (left out for a code that has none). */
export type NoticeArgs<C extends NoticeCode = NoticeCode> = {
  [K in C]: keyof NoticeParams[K] extends never
    ? [code: K, text: string]
    : [code: K, text: string, params: NoticeParams[K]];
}[C];

export type NoticeEventInput = Extract<CoreEventInput, { type: 'notice' }>;

/** The one way the core makes a notice event, so its code is listed and its values are the ones the code takes. */
export function noticeEvent(sessionId: string, level: 'info' | 'warning', ...notice: NoticeArgs): NoticeEventInput {
  const [code, text, params] = notice as [NoticeCode, string, Record<string, string | number> | undefined];
  return { type: 'notice', sessionId, level, code, text, ...(params ? { params } : {}) };
}

/** Whether this core lists the code (a stored session may hold codes of an older or newer one). */
export function isNoticeCode(code: string): code is NoticeCode {
  return Object.hasOwn(NOTICE_PARAMS, code);
}

/** The reasons a notice's `reason` may name, when the code lists them (each has its own text). */
export function noticeReasons(code: NoticeCode): readonly string[] {
  const reason = (NOTICE_PARAMS[code] as Record<string, ParamKind>).reason;
  return Array.isArray(reason) ? reason : [];
}

/** Whether the code's text needs values: a stored notice of it without them keeps its English text. */
export function noticeNeedsParams(code: string): boolean {
  if (!isNoticeCode(code)) return false;
  return Object.values(NOTICE_PARAMS[code] as Record<string, ParamKind>).some(
    (kind) => typeof kind === 'string' && !kind.endsWith('?'),
  );
}
