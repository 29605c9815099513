import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { SessionContext } from '../tool/session-context.js';
import { askElicitation, elicitationFormOf } from './elicitation.js';
import { answerSampling } from './sampling.js';
import { SamplingLimits } from './sampling-limits.js';

/**
 * What a client offers the servers it connects to: asking the person (elicitation) and the model (sampling).
 * A connection without a host (`manus mcp test`) declares neither capability, so servers do not ask.
 */
export interface McpClientHost {
  elicit(server: string, params: ElicitRequestFormParams, signal: AbortSignal): Promise<ElicitResult>;
  sample(server: string, params: CreateMessageRequestParams, signal: AbortSignal): Promise<CreateMessageResult>;
}

/** The host of a session: its human channel, its approval gate and its model (the one of the current turn). */
export function sessionClientHost(session: Pick<SessionContext, 'human' | 'gate' | 'llm'>): McpClientHost {
  const limits = new SamplingLimits();
  return {
    elicit: (server, params, signal) => askElicitation(session.human, elicitationFormOf(server, params), signal),
    sample: async (server, params, signal) => {
      const llm = session.llm();
      if (!llm) throw new Error('this session has no model to answer sampling requests yet');
      return answerSampling(server, params, { gate: session.gate, llm, human: session.human, limits }, signal);
    },
  };
}
