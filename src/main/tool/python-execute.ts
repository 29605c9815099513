import { z } from 'zod';
import type { Image } from '../../shared/events.js';
import { clipBetween } from '../sandbox/clip-output.js';
import { SandboxUnavailableError, errorText } from '../sandbox/engine.js';
import type { PythonRunResult } from '../sandbox/python-repl.js';
import { toolProgress } from './tool-progress.js';
import type { QuotaNotice } from '../sandbox/workspace-quota.js';
import { defineTool, toolError, toolOutput, type ToolContext, type ToolResult } from './tool.js';

export const PythonExecuteParameters = z.object({
  code: z
    .string()
    .describe('Python code to run. Variables, imports and open files persist between calls, like notebook cells.'),
  timeout: z.number().positive().max(3600).optional().describe('Seconds before the code is interrupted (default 60).'),
});

export const pythonExecuteTool = defineTool({
  name: 'python_execute',
  kind: 'python',
  description:
    'Run Python 3 code in the session sandbox (numpy, pandas, matplotlib, seaborn, scipy, scikit-learn, requests, and ' +
    'for documents pypdf, python-docx, openpyxl, odfpy, bs4, lxml, Pillow available). One persistent interpreter ' +
    'per session: state survives between calls. stdout and stderr are returned in order, plus the value of a last bare ' +
    'expression; exceptions come back as tracebacks. matplotlib figures are returned as images and saved under ' +
    '/workspace/figures. The working directory is /workspace, which the user sees.',
  parameters: PythonExecuteParameters,
  risk: 'execute',
  async execute(args, ctx: ToolContext<'settings' | 'sandbox'>) {
    const settings = ctx.session.settings();
    const timeoutMs = (args.timeout ?? settings.sandbox.pythonTimeoutSeconds) * 1000;
    const progress = toolProgress(ctx, 'python_execute', args);
    let sandbox;
    try {
      sandbox = await ctx.session.sandbox.get();
    } catch (error) {
      return toolError(errorText(error));
    }
    try {
      const { driver, notes, quotaMark } = await sandbox.acquirePython((text) => progress.push(`${text}\n`, true));
      try {
        const result = await driver.run(args.code, {
          timeoutMs,
          signal: ctx.signal,
          onOutput: (text) => progress.push(text),
        });
        const quota = await sandbox.quotaAfterCall(quotaMark);
        if (result.lost) sandbox.markLossReported('python');
        return describeRun(result, notes, timeoutMs, settings.agent.maxObserve, quota);
      } finally {
        progress.stop();
        await sandbox.release();
      }
    } catch (error) {
      if (error instanceof SandboxUnavailableError) return toolError(error.message);
      return toolError(`The Python sandbox failed: ${errorText(error)}`);
    }
  },
});

function describeRun(
  result: PythonRunResult,
  notes: string[],
  timeoutMs: number,
  maxObserve: number,
  quota: QuotaNotice | undefined,
): ToolResult {
  const output = result.output.length > 0 ? result.output.replace(/\n$/, '') : result.failed ? '' : '(no output)';
  // what follows the output is added after clipping it, so it always reaches the model
  const status: string[] = [];
  const interruption =
    result.interrupted === 'timeout'
      ? `Interrupted after ${timeoutMs / 1000} s (the timeout)`
      : 'Interrupted (the call was cancelled)';
  if (result.interrupted && !result.lost) {
    status.push(`[${interruption}. The interpreter is still running: state is kept.]`);
  }
  let system: string | undefined;
  if (quota?.stopped) {
    // the interpreter was killed on purpose: the quota, not a crash or the memory limit, is what the model must hear
    system = quota.text;
    status.push(`[${system}]`);
  } else if (result.lost) {
    const when = result.interrupted
      ? `${interruption}, but ${result.lost.reason}.`
      : `The interpreter died: ${result.lost.reason}.`;
    system = `${when} All Python state (variables, imports, open files) was lost; a fresh interpreter starts with the next call. Files in /workspace are kept.`;
    status.push(`[${system}]`);
  }
  const images: Image[] = result.images.map((figure) => ({
    mimeType: 'image/png',
    data: figure.data,
    ...(figure.path ? { path: figure.path } : {}),
  }));
  if (images.length > 0) {
    status.push(
      images.map((image, index) => `[figure ${index + 1} saved to ${image.path ?? '(not saved)'}]`).join('\n'),
    );
  }
  if (quota && !quota.stopped) status.push(`[${quota.text}]`);
  const text = clipBetween(notes, output, status, maxObserve, result.dropped);
  const extra = { ...(images.length > 0 ? { images } : {}), ...(system ? { system } : {}) };
  if (quota?.stopped)
    return toolOutput(text, { ...extra, error: 'The workspace went over its disk quota (details above).' });
  if (!result.failed) return toolOutput(text, extra);
  const error = system
    ? 'The Python interpreter stopped and its state was lost (details above).'
    : 'The code raised an exception; the traceback is in the output above.';
  return toolOutput(text, { ...extra, error });
}
