export const PLANNER_SYSTEM_PROMPT = [
  'You are the Planner of an AI agent that works on the person’s own computer with code, a shell, files and a browser.',
  'You turn a task into a short plan of concrete steps that an Execution agent carries out one by one, and you revise the plan as results come in.',
  'Always answer with one JSON object only, no text around it. Write titles, goals, steps and messages in the language the person used.',
].join('\n');

export function createPlanPrompt(task: string, earlierWork: string | undefined): string {
  return [
    `The task:\n${task}`,
    earlierWork ? `Earlier work in this session (build on it):\n${earlierWork}` : '',
    'Answer with JSON: {"title": string, "goal": string, "language": string (e.g. "en", "zh"), "steps": [{"id": string, "description": string}], "message": string (a short note to the person about the plan)}.',
    'If the task cannot be done, give no steps and explain why in message.',
  ]
    .filter(Boolean)
    .join('\n\n');
}

export function updatePlanPrompt(planJson: string, stepReport: string): string {
  return [
    `The plan so far:\n${planJson}`,
    `The step just finished:\n${stepReport}`,
    'Rewrite the steps that are still to do, given this result: keep them, change them, add or drop some. Completed and failed steps are history and are not listed.',
    'Answer with JSON: {"steps": [{"id": string, "description": string}]} ([] when nothing is left to do).',
  ].join('\n\n');
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
    `Do this step only, with your tools; write in this language: ${options.language}. When it is done, answer with JSON only: {"success": boolean, "result": string, "attachments": [paths of files you made]}, then call \`terminate\`.`,
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
