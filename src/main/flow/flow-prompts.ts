import type { AgentDescription } from './base-flow.js';

export const PLANNING_SYSTEM_PROMPT = [
  'You are an expert planning agent. You create and manage plans that solve complex tasks with the `planning` tool.',
  'Break the task into clear, actionable steps, ordered so that each step has what it needs; make each step specific enough to be carried out by one agent; add a check of the result when it helps.',
  'Focus on key milestones rather than tiny sub-steps. Write the steps in the language of the task.',
].join('\n');

export function initialPlanPrompt(options: {
  task: string;
  agents: AgentDescription[];
  parallel: number;
  earlierWork?: string;
}): string {
  const parts = [`Create a reasonable plan with clear steps to accomplish the task:\n\n${options.task}`];
  if (options.earlierWork) {
    parts.push(`Earlier work in this session (use it; do not redo what is done):\n\n${options.earlierWork}`);
  }
  if (options.agents.length > 1) {
    parts.push(
      [
        'These agents can carry out steps:',
        ...options.agents.map((agent) => `- ${agent.name}: ${agent.description}`),
        'When a step suits one of them, start the step text with its name in brackets, e.g. `[SWE] write the parser`.',
      ].join('\n'),
    );
  }
  if (options.parallel > 1) {
    parts.push(
      `Up to ${options.parallel} independent steps can run at the same time: give step_dependencies, listing for each step the earlier steps it needs ([] when it needs none).`,
    );
  }
  parts.push('Call the planning tool with command "create", a title and the steps.');
  return parts.join('\n\n');
}

export const DEFAULT_PLAN_STEPS = ['Analyze the request', 'Execute the task', 'Verify the results'];

export function stepPrompt(options: { planText: string; index: number; text: string; earlierNotes: string }): string {
  return [
    `CURRENT PLAN STATUS:\n${options.planText}`,
    options.earlierNotes ? `RESULTS OF EARLIER STEPS:\n${options.earlierNotes}` : '',
    `YOUR CURRENT TASK:\nYou are now working on step ${options.index}: "${options.text}"`,
    'Do this step only, with your tools. When it is done, give its result (what you found or made, with the paths of files) and call `terminate`.',
  ]
    .filter(Boolean)
    .join('\n\n');
}

export function revisionPrompt(options: { planText: string; report: string; hasBlocked: boolean }): string {
  return [
    `The plan now:\n${options.planText}`,
    `What just happened:\n${options.report}`,
    options.hasBlocked
      ? 'A step is blocked. Decide: to retry it, mark_step it not_started (with a note on what to do differently); to work around it, update the plan with alternative steps in its place; to stop, call no tool.'
      : 'If the remaining steps should change (add, change or drop steps that are not completed), call the planning tool with command "update" and the full new list of steps. If the plan is still right, call no tool and answer "continue".',
  ].join('\n\n');
}

export const SUMMARY_SYSTEM_PROMPT =
  'You are a planning assistant. Summarise what the plan achieved for the person who asked, in the language of the task: the results, the files made (with paths), and anything left undone.';

export function summaryPrompt(options: { task: string; planText: string; results: string; ending: string }): string {
  return [
    `The task:\n${options.task}`,
    `The plan:\n${options.planText}`,
    options.results ? `Results of the steps, in plan order:\n${options.results}` : '',
    options.ending,
    'Write the final answer: a short summary of what was accomplished and the final result.',
  ]
    .filter(Boolean)
    .join('\n\n');
}
