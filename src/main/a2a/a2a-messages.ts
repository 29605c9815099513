import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Message, type Part, type TaskStatus } from '@a2a-js/sdk';

export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

export function agentMessage(text: string, ids: { taskId: string; contextId: string }): Message {
  return {
    messageId: randomUUID(),
    contextId: ids.contextId,
    taskId: ids.taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function status(state: TaskState, message?: Message): TaskStatus {
  return { state, message, timestamp: new Date().toISOString() };
}

/** The task text the agent gets from a user message: text parts as they are, other parts described. */
export function taskTextOf(message: Message): string {
  return message.parts
    .map((part) => {
      const content = part.content;
      if (!content) return '';
      switch (content.$case) {
        case 'text':
          return content.value;
        case 'data':
          return JSON.stringify(content.value);
        case 'url':
          return `[file ${part.filename || content.value} (${part.mediaType || 'unknown type'}): ${content.value}]`;
        case 'raw':
          return `[attached file ${part.filename || 'unnamed'} (${part.mediaType || 'unknown type'}), ${content.value.length} bytes]`;
      }
    })
    .filter((text) => text.trim() !== '')
    .join('\n');
}
