import { z } from 'zod';
import { defineTool, toolOutput } from './tool.js';

export const TERMINATE_TOOL_NAME = 'terminate';

export const terminateTool = defineTool({
  name: TERMINATE_TOOL_NAME,
  kind: 'generic',
  description:
    'Finish the task. Call it when the request is fully done (status success) or cannot be done (status failure); give the final answer in your message before calling it.',
  parameters: z.object({
    status: z.enum(['success', 'failure']).describe('whether the task was completed'),
  }),
  risk: 'read',
  async execute({ status }) {
    return toolOutput(`The interaction has been completed with status: ${status}`);
  },
});
