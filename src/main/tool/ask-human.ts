import { z } from 'zod';
import { humanChannelKey } from '../session/human-channel.js';
import { defineTool, toolError, toolOutput } from './tool.js';

export const askHumanTool = defineTool({
  name: 'ask_human',
  kind: 'generic',
  description:
    'Ask the person a question and wait for the answer. Use it only when you cannot go on without their input (a choice, a missing detail, a login).',
  parameters: z.object({ inquire: z.string().min(1).describe('the question to ask') }),
  risk: 'read',
  async execute({ inquire }, ctx) {
    try {
      const channel = await ctx.resources.get(humanChannelKey);
      const answer = await channel.ask({ kind: 'question', question: inquire, signal: ctx.signal });
      return toolOutput(answer);
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      return toolError((error as Error).message);
    }
  },
});
