import type { AskOptions, AskToolOptions, Llm, LlmHooks, LlmReply } from '../llm/types.js';
import type { ChatMessage } from '../../shared/chat-message.js';

/** The model as a session uses it: every call also reports usage and notices to the session. */
export function withSessionHooks(llm: Llm, hooks: Required<Pick<LlmHooks, 'onUsage' | 'onNotice'>>): Llm {
  const merge = <T extends AskOptions>(options: T): T => ({
    ...options,
    onUsage: (usage, model) => {
      hooks.onUsage(usage, model);
      options.onUsage?.(usage, model);
    },
    onNotice: (code, text, params) => {
      hooks.onNotice(code, text, params);
      options.onNotice?.(code, text, params);
    },
  });
  return {
    get model() {
      return llm.model;
    },
    get supportsVision() {
      return llm.supportsVision;
    },
    ask: (messages: ChatMessage[], options: AskOptions = {}): Promise<LlmReply> => llm.ask(messages, merge(options)),
    askTool: (messages: ChatMessage[], options: AskToolOptions): Promise<LlmReply> =>
      llm.askTool(messages, merge(options)),
  };
}
