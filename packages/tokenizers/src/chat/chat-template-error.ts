import { AttnkitError, describeValue } from '@attnkit/errors';

/** Why a chat template could not give a prompt: the folder has none, or the template failed (its own `raise_exception`, or a Jinja error). */
export type ChatTemplateFailure = 'missing' | 'raised' | 'render';

/**
 * A chat template that cannot give a prompt: the tokenizer folder has no template (the message names
 * `chat_template.jinja` and tokenizer_config.json's `chat_template` key), the template called
 * `raise_exception(message)` (`templateMessage` is its own message, as transformers' `TemplateError`),
 * or it failed to parse or render (`templateMessage` is the Jinja engine's message). It is built from
 * whatever details it is given (a non-string caller or message is described), so reporting never throws.
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
    const given: Partial<typeof details> = typeof details === 'object' && details !== null ? details : {}; // reporting never throws: any details give an error
    super('ATTNKIT_CHAT_TEMPLATE', `${text(given.caller, 'applyChatTemplate')}: ${text(given.message, 'the chat template failed')}`, { cause: given.cause });
    this.failure = given.failure as ChatTemplateFailure;
    this.source = given.source as string;
    this.templateMessage = given.templateMessage;
  }
}

/** A message part: a string as it is, anything else described (a disposed tensor or an object never throws here). */
function text(value: unknown, absent: string): string {
  return typeof value === 'string' ? value : value === undefined ? absent : describeValue(value);
}
