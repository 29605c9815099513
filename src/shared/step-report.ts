import { z } from 'zod';

/** What a Plan-Act executor answers when its step is done (the seed's `{success, result, attachments}`). */
export const StepReportSchema = z.object({
  success: z.boolean(),
  result: z.string(),
  attachments: z.array(z.string()).default([]),
});
export type StepReport = z.infer<typeof StepReportSchema>;

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
    const parsed = StepReportSchema.safeParse(extractJson(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
