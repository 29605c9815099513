import type { z } from 'zod';
import type { Llm } from '../llm/types.js';
import type { ChatMessage } from '../../shared/chat-message.js';
import { PlannerReplyError } from './flow-errors.js';
import {
  createPlanPrompt,
  PLANNER_SYSTEM_PROMPT,
  retryPrompt,
  summarizePrompt,
  updatePlanPrompt,
} from './plan-act-prompts.js';
import {
  parseReply,
  PlanActPlanSchema,
  PlanActSummarySchema,
  PlanActUpdateSchema,
  type PlanActPlan,
  type PlanActSummary,
} from './plan-act-schemas.js';

/** answers that are not valid JSON for the schema are asked again this many times in all */
export const MAX_JSON_ATTEMPTS = 3;

/** The Planner of Plan-Act: answers in JSON, validated with zod, and is asked again when the JSON is not right. */
export class PlanActPlanner {
  constructor(
    private readonly llm: Llm,
    private readonly onRetry: (what: string, error: string) => void,
  ) {}

  createPlan(task: string, earlierWork: string | undefined, signal: AbortSignal): Promise<PlanActPlan> {
    return this.askJson(createPlanPrompt(task, earlierWork), PlanActPlanSchema, 'plan', signal);
  }

  async updateSteps(
    planJson: string,
    stepReport: string,
    signal: AbortSignal,
  ): Promise<{ id: string; description: string }[]> {
    return (await this.askJson(updatePlanPrompt(planJson, stepReport), PlanActUpdateSchema, 'plan update', signal))
      .steps;
  }

  summarize(planJson: string, language: string, signal: AbortSignal): Promise<PlanActSummary> {
    return this.askJson(summarizePrompt(planJson, language), PlanActSummarySchema, 'summary', signal);
  }

  private async askJson<T>(prompt: string, schema: z.ZodType<T>, what: string, signal: AbortSignal): Promise<T> {
    const messages: ChatMessage[] = [
      { role: 'system', content: PLANNER_SYSTEM_PROMPT },
      { role: 'user', content: prompt },
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
