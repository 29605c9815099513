import { argumentsText } from './chunks.js';
import type { FakeToolCall } from './types.js';

/** How models without (or ignoring) the tools API write calls in their reply text. */
export type TextToolCallStyle = 'bare' | 'hermes' | 'json_fence';

/** A reply text holding `calls` as such a model writes them: bare JSON objects, Hermes/Qwen tags, or a ```json fence. */
export function toolCallsAsText(style: TextToolCallStyle, calls: FakeToolCall[], prose = ''): string {
  const objects = calls.map((call) => `{"name": "${call.name}", "arguments": ${argumentsText(call)}}`);
  const body =
    style === 'hermes'
      ? objects.map((object) => `<tool_call>\n${object}\n</tool_call>`).join('\n')
      : style === 'json_fence'
        ? objects.map((object) => '```json\n' + object + '\n```').join('\n')
        : objects.join('\n');
  return prose ? `${prose}\n${body}` : body;
}
