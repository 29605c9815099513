import { describeError } from './run-errors.js';
import type { RunContext } from './mode-runner.js';
import type { Plan } from '../store/plan-store.js';
import { SUMMARY_SYSTEM_PROMPT, summaryPrompt } from './flow-prompts.js';
import { planText } from './plan-text.js';
import type { NoticeArgs } from '../../shared/notice-codes.js';

/** the primary agent writing the summary needs no tools, only a couple of turns */
const SUMMARY_AGENT_STEPS = 3;

/** The steps' results in plan order (steps that ran side by side are merged in the order the plan gives them). */
export function completedResults(plan: Plan): string {
  return plan.steps
    .filter((step) => step.status === 'completed' && step.notes)
    .map(
      (step) =>
        `Step ${step.index} (${step.text}):\n${step.notes}${step.attachments.length ? `\nFiles: ${step.attachments.join(', ')}` : ''}`,
    )
    .join('\n\n');
}

/** The plan and its results as plain text: the answer when no model can write one. */
export function planReport(plan: Plan, ending: string): string {
  const results = completedResults(plan);
  return [ending, planText(plan), results ? `Results:\n${results}` : ''].filter(Boolean).join('\n\n');
}

/**
 * The turn's final answer: written by the model; if that fails, by the primary agent; if that fails too, the plan
 * report. The person's cancel still stops it.
 */
export async function summarizePlan(options: {
  run: RunContext;
  plan: Plan;
  ending: string;
  primary: string;
  onFallback: (...notice: NoticeArgs<'summary_fallback' | 'summary_report'>) => void;
}): Promise<string> {
  const { run, plan, ending } = options;
  const prompt = summaryPrompt({ task: plan.task, planText: planText(plan), results: completedResults(plan), ending });
  try {
    const reply = await run.llm.ask(
      [
        { role: 'system', content: SUMMARY_SYSTEM_PROMPT },
        { role: 'user', content: prompt },
      ],
      { signal: run.signal },
    );
    if (reply.text.trim()) return reply.text.trim();
    options.onFallback('summary_fallback', 'The model gave an empty summary; asking the primary agent.', {
      reason: 'empty',
    });
  } catch (error) {
    if (run.signal.aborted) throw error;
    const reason = describeError(error).message;
    options.onFallback('summary_fallback', `The summary failed (${reason}); asking the primary agent.`, {
      reason: 'failed',
      error: reason,
    });
  }
  try {
    const agent = run.createAgent(options.primary, {
      maxSteps: SUMMARY_AGENT_STEPS,
      memoryKey: `flow/${plan.id}/summary/${Date.now()}`,
    });
    const outcome = await agent.run(prompt, { signal: run.signal });
    if (outcome.outcome === 'success' && outcome.text.trim()) return outcome.text.trim();
    options.onFallback('summary_report', `The ${options.primary} agent gave no summary; showing the plan report.`, {
      reason: 'missing',
      agent: options.primary,
    });
  } catch (error) {
    if (run.signal.aborted) throw error;
    const reason = describeError(error).message;
    options.onFallback(
      'summary_report',
      `The ${options.primary} agent could not summarise (${reason}); showing the plan report.`,
      { reason: 'failed', error: reason },
    );
  }
  return planReport(plan, ending);
}
