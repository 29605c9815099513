import type { z } from 'zod';
import type { Llm } from '../llm/types.js';
import type { ChatMessage } from '../../shared/chat-message.js';
import { withTaskImages, type AgentDescription, type TaskImages } from './base-flow.js';
import { PlannerReplyError } from './flow-errors.js';
import {
  createPlanPrompt,
  nextStepPrompt,
  PLANNER_SYSTEM_PROMPT,
  retryPrompt,
  summarizePrompt,
} from './plan-act-prompts.js';
import {
  parseReply,
  PlanActPlanSchema,
  PlanActSummarySchema,
  PlanActUpdateSchema,
  type PlanActPlan,
  type PlanActSummary,
  type PlannedStep,
} from './plan-act-schemas.js';

/** answers that are not valid JSON for the schema are asked again this many times in all */
export const MAX_JSON_ATTEMPTS = 3;

/** The Planner of Plan-Act: answers in JSON, validated with zod, and is asked again when the JSON is not right. */
export class PlanActPlanner {
  constructor(
    private readonly llm: Llm,
    private readonly onRetry: (what: string, error: string) => void,
  ) {}

  createPlan(
    task: string,
    earlierWork: string | undefined,
    agents: readonly AgentDescription[],
    seen: TaskImages,
    signal: AbortSignal,
  ): Promise<PlanActPlan> {
    const prompt = withTaskImages(createPlanPrompt(task, earlierWork, agents), seen);
    return this.askJson(prompt, PlanActPlanSchema, 'plan', signal);
  }

  /** The steps still to do after a step ended (a failed one: a replan). */
  async nextSteps(prompt: Parameters<typeof nextStepPrompt>[0], signal: AbortSignal): Promise<PlannedStep[]> {
    return (await this.askJson(nextStepPrompt(prompt), PlanActUpdateSchema, 'plan update', signal)).steps;
  }

  summarize(planJson: string, language: string, signal: AbortSignal): Promise<PlanActSummary> {
    return this.askJson(summarizePrompt(planJson, language), PlanActSummarySchema, 'summary', signal);
  }

  private async askJson<T>(
    prompt: string | ChatMessage,
    schema: z.ZodType<T>,
    what: string,
    signal: AbortSignal,
  ): Promise<T> {
    const messages: ChatMessage[] = [
      { role: 'system', content: PLANNER_SYSTEM_PROMPT },
      typeof prompt === 'string' ? { role: 'user', content: prompt } : prompt,
    ];
    let lastError = '';
    for (let attempt = 1; attempt <= MAX_JSON_ATTEMPTS; attempt++) {
      const reply = await this.llm.ask(messages, { signal });
      const parsed = parseReply(reply.text, schema);
      if (parsed.ok) return parsed.value;
      lastError = parsed.error;
      this.onRetry(what, lastError);
      messages.push({ role: 'assistant', content: reply.text }, { role: 'user', content: retryPrompt(lastError) });
    }
    throw new PlannerReplyError(what, MAX_JSON_ATTEMPTS, lastError);
  }
}
