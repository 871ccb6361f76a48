import { InvalidArgumentError, describeValue } from '@attnkit/errors';

/**
 * One turn of a conversation, as chat templates read it: a `role` (`'system'`, `'user'`,
 * `'assistant'`, `'tool'`, ...) and its `content` (text; a list of parts or an object where the
 * template reads those), and whatever else the template reads (`tool_calls`, `reasoning_content`, ...).
 */
export interface ChatMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly [key: string]: unknown;
}

/**
 * Checks a conversation before a template reads it: a non-empty list of objects, each with a string
 * `role` and a `content` (text, a list of parts, an object or `null`; it may be left out only by a
 * message with `tool_calls`). Returns shallow copies (the caller's objects are never changed).
 *
 * @example
 * checkChatMessages([{ role: 'user', content: 'Hi' }], 'Tokenizer.applyChatTemplate');
 */
export function checkChatMessages(messages: unknown, caller: string): ChatMessage[] {
  const expected = 'a non-empty list of messages { role: string, content: string | parts | null }';
  if (!Array.isArray(messages) || messages.length === 0) throw new InvalidArgumentError({ caller, argument: 'messages', expected, received: Array.isArray(messages) ? 'an empty list' : describeValue(messages) });
  return Array.from(messages as ArrayLike<unknown>, (message, i) => {
    const where = `messages[${i}]`;
    if (typeof message !== 'object' || message === null || Array.isArray(message)) throw new InvalidArgumentError({ caller, argument: where, expected: 'a message { role, content }', received: describeValue(message) });
    const { role, content } = message as Record<string, unknown>;
    if (typeof role !== 'string' || role === '') throw new InvalidArgumentError({ caller, argument: `${where}.role`, expected: "a role such as 'system', 'user' or 'assistant'", received: describeValue(role) });
    const hasToolCalls = (message as Record<string, unknown>)['tool_calls'] !== undefined;
    if (content === undefined ? !hasToolCalls : !(typeof content === 'string' || content === null || typeof content === 'object')) {
      throw new InvalidArgumentError({ caller, argument: `${where}.content`, expected: 'text, a list of content parts, an object or null (left out only with tool_calls)', received: describeValue(content) });
    }
    return { ...(message as Record<string, unknown>) } as ChatMessage;
  });
}
