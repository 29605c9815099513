import type { AgentDescription } from './base-flow.js';

export const PLANNER_SYSTEM_PROMPT = [
  'You are the Planner of an AI agent that works on the person’s own computer with code, a shell, files and a browser.',
  'You turn a task into a short plan of concrete steps that Execution agents carry out one by one, and you revise the plan as results come in.',
  'Always answer with one JSON object only, no text around it. Write titles, goals, steps and messages in the language the person used.',
].join('\n');

const STEP_FORM = '{"id": string, "description": string, "type": string (the agent for the step)}';

function agentsPart(agents: readonly AgentDescription[]): string {
  return [
    'The agents that carry out steps (a step\'s "type" names one; without it the first one works on it):',
    ...agents.map((agent) => `- ${agent.name}: ${agent.description}`),
  ].join('\n');
}

export function createPlanPrompt(
  task: string,
  earlierWork: string | undefined,
  agents: readonly AgentDescription[],
): string {
  return [
    `The task:\n${task}`,
    earlierWork ? `Earlier work in this session (build on it):\n${earlierWork}` : '',
    agentsPart(agents),
    `Answer with JSON: {"title": string, "goal": string, "language": string (e.g. "en", "zh"), "steps": [${STEP_FORM}], "message": string (a short note to the person about the plan)}.`,
    'If the task cannot be done, give no steps and explain why in message.',
  ]
    .filter(Boolean)
    .join('\n\n');
}

/**
 * The Planner's next-step prompt: the plan so far with its results, the step that just ended, and what remains. A
 * failed step asks for a new way to the goal.
 */
export function nextStepPrompt(options: {
  planStatus: string;
  results: string;
  justFinished: string;
  remaining: string;
  failed: boolean;
  agents: readonly AgentDescription[];
}): string {
  return [
    `CURRENT PLAN STATUS:\n${options.planStatus}`,
    options.results ? `RESULTS SO FAR:\n${options.results}` : '',
    `The step just finished:\n${options.justFinished}`,
    `STEPS STILL TO DO:\n${options.remaining || '(none)'}`,
    agentsPart(options.agents),
    options.failed
      ? 'That step FAILED. Replan: give the steps still to do so that the goal is still reached, taking the error into account (another approach, another agent, or the failed work done differently). Give [] only if the goal cannot be reached.'
      : 'Given this result, give the steps still to do: keep them, change them, add or drop some. Finished steps are history and are not listed.',
    `Answer with JSON: {"steps": [${STEP_FORM}]} ([] when nothing is left to do).`,
  ]
    .filter(Boolean)
    .join('\n\n');
}

export function executeStepPrompt(options: {
  goal: string;
  language: string;
  step: { id: string; description: string };
  earlierResults: string;
}): string {
  return [
    `The overall goal: ${options.goal}`,
    options.earlierResults ? `Results of earlier steps:\n${options.earlierResults}` : '',
    `Your step (id ${options.step.id}): ${options.step.description}`,
    `Do this step only, with your tools; write in this language: ${options.language}. When it is done, answer with JSON only: {"success": boolean, "result": string (what you found or made, in words for the person), "attachments": [paths of files you made, relative to the workspace]}, then call \`terminate\`.`,
  ]
    .filter(Boolean)
    .join('\n\n');
}

export function summarizePrompt(planJson: string, language: string): string {
  return [
    `The plan and the results of its steps:\n${planJson}`,
    `Summarise for the person, in this language: ${language}, what was done and the result.`,
    'Answer with JSON: {"message": string, "attachments": [paths of the files the person should look at]}.',
  ].join('\n\n');
}

export function retryPrompt(error: string): string {
  return `That answer was not usable: ${error}. Answer again with only the JSON object, in the form asked.`;
}
