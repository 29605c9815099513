import type { AskOptions, AskToolOptions, Llm, LlmHooks, LlmReply } from '../llm/types.js';
import type { ChatMessage } from '../../shared/chat-message.js';

export interface SessionLlmHooks extends Required<Pick<LlmHooks, 'onUsage' | 'onNotice'>> {
  /** asked before every model call; throws to refuse it (the run's token budget is spent) */
  beforeRequest: () => void;
}

/** The model as a session uses it: every call is let through by the session and reports usage and notices to it. */
export function withSessionHooks(llm: Llm, hooks: SessionLlmHooks): Llm {
  const merge = <T extends AskOptions>(options: T): T => ({
    ...options,
    onUsage: (usage, model) => {
      hooks.onUsage(usage, model);
      options.onUsage?.(usage, model);
    },
    onNotice: (...notice) => {
      hooks.onNotice(...notice);
      options.onNotice?.(...notice);
    },
  });
  return {
    get model() {
      return llm.model;
    },
    get supportsVision() {
      return llm.supportsVision;
    },
    ask: async (messages: ChatMessage[], options: AskOptions = {}): Promise<LlmReply> => {
      hooks.beforeRequest();
      return llm.ask(messages, merge(options));
    },
    askTool: async (messages: ChatMessage[], options: AskToolOptions): Promise<LlmReply> => {
      hooks.beforeRequest();
      return llm.askTool(messages, merge(options));
    },
  };
}
