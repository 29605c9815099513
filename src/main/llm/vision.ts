import type { ChatMessage } from '../../shared/chat-message.js';

/** The conversation without images, for models that cannot take them, and how many were left out. */
export function withoutImages(messages: readonly ChatMessage[]): { messages: ChatMessage[]; dropped: number } {
  let dropped = 0;
  const stripped = messages.map((message) => {
    if (!message.images?.length) return message;
    dropped += message.images.length;
    const note = `[${message.images.length} image(s) left out: this model does not take images]`;
    return { ...message, images: undefined, content: message.content ? `${message.content}\n${note}` : note };
  });
  return { messages: stripped, dropped };
}
