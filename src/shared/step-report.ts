/**
 * What a Plan-Act executor answers when its step is done (the seed's `{success, result, attachments}`). Checked by
 * hand here, not with zod: the renderer's first screen reads old reports and loads no schemas (the core's own parse
 * of a fresh reply is `StepReportSchema` in flow/plan-act-schemas.ts).
 */
export interface StepReport {
  success: boolean;
  result: string;
  attachments: string[];
}

function asStepReport(value: unknown): StepReport | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { success, result, attachments = [] } = value as Record<string, unknown>;
  if (typeof success !== 'boolean' || typeof result !== 'string') return undefined;
  if (!Array.isArray(attachments) || !attachments.every((path) => typeof path === 'string')) return undefined;
  return { success, result, attachments };
}

/** The first JSON object in a reply, with or without a ```json fence around it. */
export function extractJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1] ?? text;
  const start = fenced.indexOf('{');
  const end = fenced.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error('no JSON object found');
  return JSON.parse(fenced.slice(start, end + 1));
}

/**
 * The executor's report in a message, when the message is one: the flow shows its result instead, and views of
 * sessions stored before it did (reload, review, export) read old messages the same way.
 */
export function readStepReport(text: string): StepReport | undefined {
  if (!text.includes('"success"')) return undefined;
  try {
    return asStepReport(extractJson(text));
  } catch {
    return undefined;
  }
}
