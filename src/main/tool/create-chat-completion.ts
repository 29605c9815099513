import { z } from 'zod';
import { defineTool, toolError, toolOutput, type ToolContext } from './tool.js';

/** Lets an agent hand a self-contained writing job (a summary, a draft) to the model in one call. */
export const createChatCompletionTool = defineTool({
  name: 'create_chat_completion',
  kind: 'generic',
  description:
    'Write a text with the language model from a self-contained instruction (e.g. summarise, draft, translate).',
  parameters: z.object({
    instruction: z.string().min(1).describe('what to write, with everything needed to write it'),
  }),
  risk: 'read',
  async execute({ instruction }, ctx: ToolContext<'llm'>) {
    const llm = ctx.session.llm();
    if (!llm) return toolError('No language model is configured for this session.');
    try {
      const reply = await llm.ask([{ role: 'user', content: instruction }], { signal: ctx.signal, stream: false });
      return toolOutput(reply.text);
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      return toolError(`The completion failed: ${(error as Error).message}`);
    }
  },
});
