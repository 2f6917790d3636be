import { generateText } from 'ai';
import type { ChatModel } from '../ai/providers';
import type { Replier } from './run';

/**
 * A case's reply written by the configured model (kb:test --with-model): the turn's own system
 * prompt (instructions, pinned knowledge, the sections the selector sent) and the customer's
 * messages as user messages — what the chat sends, without earlier assistant replies (a test
 * case has none).
 */
export function modelReplier(chat: ChatModel): Replier {
  return {
    async reply(retrieval, customerMessages) {
      const { text } = await generateText({
        model: chat.model,
        system: retrieval.systemPrompt,
        messages: customerMessages.map((content) => ({ role: 'user' as const, content })),
        allowSystemInMessages: false,
        maxRetries: 0,
      });
      return text;
    },
  };
}
