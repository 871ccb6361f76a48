import { checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';
import type { ChatMessage } from './chat-message.js';
import { chooseChatTemplate, type ChatTemplates } from './chat-templates.js';
import { RENDER_OPTION_KEYS, renderChatTemplate, type RenderChatTemplateOptions } from './render-chat-template.js';

/** Options of `Tokenizer.applyChatTemplate`: {@link RenderChatTemplateOptions} and which template, and whether to return ids. */
export interface ApplyChatTemplateOptions extends RenderChatTemplateOptions {
  /** One of the folder's named templates (`'default'`, `'tool_use'`, ...). Default: `'tool_use'` with tools when there is one, else `'default'`. */
  readonly templateName?: string;
  /** A Jinja template text to use instead of the folder's (transformers' `chat_template` argument given a template). */
  readonly chatTemplate?: string;
  /** Return the prompt's token ids (encoded without adding special tokens: the template writes them) instead of its text. Default false. */
  readonly tokenize?: boolean;
}

/** What applying a template needs of a tokenizer. */
export interface ChatTemplateContext {
  readonly chat: ChatTemplates;
  /** tokenizer_config.json's special tokens, as template variables (`bos_token`, `eos_token`, ...). */
  readonly specialTokens: Readonly<Record<string, string>>;
  /** The ids of a text, no special tokens added. */
  readonly encode: (text: string) => number[];
}

/**
 * transformers' `apply_chat_template` on a tokenizer's templates: the template chosen
 * (`chooseChatTemplate`, or `options.chatTemplate`), rendered with the special tokens and
 * `options.variables` as variables (`renderChatTemplate`), and, with `tokenize: true`, encoded
 * without adding special tokens.
 *
 * @example
 * applyChatTemplate(context, [{ role: 'user', content: 'Hi' }], { addGenerationPrompt: true }, 'Tokenizer.applyChatTemplate');
 */
export function applyChatTemplate(context: ChatTemplateContext, messages: readonly ChatMessage[], options: ApplyChatTemplateOptions, caller: string): string | number[] {
  checkOptionKeys(options, [...RENDER_OPTION_KEYS, 'templateName', 'chatTemplate', 'tokenize'], caller);
  const { templateName, chatTemplate, tokenize = false, variables, ...render } = options;
  if (typeof tokenize !== 'boolean') throw new InvalidArgumentError({ caller, argument: 'tokenize', expected: 'true or false', received: describeValue(tokenize) });
  if (chatTemplate !== undefined && (typeof chatTemplate !== 'string' || templateName !== undefined)) {
    throw new InvalidArgumentError({ caller, argument: 'chatTemplate', expected: templateName === undefined ? 'a Jinja template (a string)' : 'left out with templateName (a template text, or the name of one of the folder\'s)', received: typeof chatTemplate === 'string' ? 'both' : describeValue(chatTemplate) });
  }
  const template = chatTemplate ?? chooseChatTemplate(context.chat, { templateName, tools: render.tools }, caller);
  const source = chatTemplate === undefined ? `${context.chat.source}${context.chat.templates.size > 1 ? `, template '${templateName ?? (render.tools !== undefined && context.chat.templates.has('tool_use') ? 'tool_use' : 'default')}'` : ''}` : 'options.chatTemplate';
  if (variables !== undefined && (typeof variables !== 'object' || variables === null || Array.isArray(variables))) throw new InvalidArgumentError({ caller, argument: 'variables', expected: 'an object of template variables', received: describeValue(variables) });
  const text = renderChatTemplate(template, messages, { ...render, variables: { ...context.specialTokens, ...variables } }, { caller, source });
  return tokenize ? context.encode(text) : text;
}
