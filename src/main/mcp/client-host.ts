import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { llmOf } from '../config/session-settings.js';
import { toolGateOf } from '../tool/tool-gate.js';
import type { SessionResources } from '../session/resources.js';
import { humanChannelKey } from '../human/human-channel.js';
import { askElicitation, elicitationFormOf } from './elicitation.js';
import { answerSampling } from './sampling.js';

/**
 * What a client offers the servers it connects to: asking the person (elicitation) and the model (sampling).
 * A connection without a host (`manus mcp test`) declares neither capability, so servers do not ask.
 */
export interface McpClientHost {
  elicit(server: string, params: ElicitRequestFormParams, signal: AbortSignal): Promise<ElicitResult>;
  sample(server: string, params: CreateMessageRequestParams, signal: AbortSignal): Promise<CreateMessageResult>;
}

/** The host of a session: its human channel, its approval gate and its model (the one of the current turn). */
export function sessionClientHost(resources: SessionResources): McpClientHost {
  return {
    elicit: async (server, params, signal) =>
      askElicitation(await resources.get(humanChannelKey), elicitationFormOf(server, params), signal),
    sample: async (server, params, signal) => {
      const gate = toolGateOf(resources);
      const llm = llmOf(resources);
      if (!gate || !llm) throw new Error('this session has no model to answer sampling requests yet');
      return answerSampling(server, params, { gate, llm, human: await resources.get(humanChannelKey) }, signal);
    },
  };
}
