import { z } from 'zod';
import { defineTool, toolError, toolOutput, type ToolContext } from './tool.js';

export const askHumanTool = defineTool({
  name: 'ask_human',
  kind: 'generic',
  description:
    'Ask the person a question and wait for the answer. Use it only when you cannot go on without their input (a choice, a missing detail, a login).',
  parameters: z.object({ inquire: z.string().min(1).describe('the question to ask') }),
  risk: 'read',
  async execute({ inquire }, ctx: ToolContext<'human'>) {
    try {
      const answer = await ctx.session.human.ask({ kind: 'question', question: inquire, signal: ctx.signal });
      return toolOutput(answer);
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      return toolError((error as Error).message);
    }
  },
});
