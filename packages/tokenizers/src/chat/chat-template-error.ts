import { AttnkitError } from '@attnkit/errors';

/** Why a chat template could not give a prompt: the folder has none, or the template failed (its own `raise_exception`, or a Jinja error). */
export type ChatTemplateFailure = 'missing' | 'raised' | 'render';

/**
 * A chat template that cannot give a prompt: the tokenizer folder has no template (the message names
 * `chat_template.jinja` and tokenizer_config.json's `chat_template` key), the template called
 * `raise_exception(message)` (`templateMessage` is its own message, as transformers' `TemplateError`),
 * or it failed to parse or render (`templateMessage` is the Jinja engine's message).
 *
 * @example
 * try { tokenizer.applyChatTemplate(messages); } catch (e) { if (e instanceof ChatTemplateError && e.failure === 'raised') console.log(e.templateMessage); }
 */
export class ChatTemplateError extends AttnkitError {
  readonly failure: ChatTemplateFailure;
  /** Where the template came from: `'chat_template.jinja'`, `'tokenizer_config.json "chat_template"'`, ... */
  readonly source: string;
  /** The template's own message (`raise_exception`) or the engine's; `undefined` for a missing template. */
  readonly templateMessage: string | undefined;

  constructor(details: { readonly caller: string; readonly failure: ChatTemplateFailure; readonly source: string; readonly templateMessage?: string; readonly message: string; readonly cause?: unknown }) {
    super('ATTNKIT_CHAT_TEMPLATE', `${details.caller}: ${details.message}`, { cause: details.cause });
    this.failure = details.failure;
    this.source = details.source;
    this.templateMessage = details.templateMessage;
  }
}
