import { Template, parse as parseJinja, tokenize as tokenizeJinja } from '@huggingface/jinja';
import { AttnkitError, InvalidArgumentError, checkOptionKeys, describeValue, isTensorLike } from '@attnkit/errors';
import { checkChatMessages, type ChatMessage } from './chat-message.js';
import { ChatTemplateError } from './chat-template-error.js';

/** Options of {@link renderChatTemplate}, named as transformers' `apply_chat_template` arguments. */
export interface RenderChatTemplateOptions {
  /** Ends the prompt with the template's header of a new assistant turn (`add_generation_prompt`). Default false. */
  readonly addGenerationPrompt?: boolean;
  /**
   * Leaves the final message open, without its end-of-turn tokens, for the model to continue it
   * (`continue_final_message`); a string names the field to continue (`'reasoning_content'`).
   * Default false; not with `addGenerationPrompt`.
   */
  readonly continueFinalMessage?: boolean | string;
  /** JSON schemas of the tools the model may call (`tools`), for templates that read them. */
  readonly tools?: readonly Readonly<Record<string, unknown>>[];
  /** Documents for retrieval-augmented generation (`documents`: `{ title, text }` objects), for templates that read them. */
  readonly documents?: readonly Readonly<Record<string, unknown>>[];
  /** Further variables the template reads (transformers' extra keyword arguments: `enable_thinking`, `date_string`, ...); they win over the special tokens. */
  readonly variables?: Readonly<Record<string, unknown>>;
}

export const RENDER_OPTION_KEYS = ['addGenerationPrompt', 'continueFinalMessage', 'tools', 'documents', 'variables'] as const;

/** What transformers' `render_jinja_template` appends to the message it continues, to find where it ends. */
const CONTINUE_TAG = 'CONTINUE_FINAL_MESSAGE_TAG ';
/** Variables the renderer sets itself, and the Jinja engine's globals (which a render cannot redeclare). */
const RESERVED = ['messages', 'tools', 'documents', 'add_generation_prompt', 'raise_exception', 'strftime_now', 'range', 'namespace', 'true', 'false', 'none', 'True', 'False', 'None'];

/** `raise_exception(message)` in a template: the template's own refusal. */
class TemplateRaised extends Error {}

const compiled = new Map<string, Template>();
/** The engine declares its own `raise_exception`, which a render's variables cannot replace: each template starts by setting it to ours. */
const RAISE_VARIABLE = '__attnkit_raise_exception__';
const SET_RAISE = parseJinja(tokenizeJinja(`{% set raise_exception = ${RAISE_VARIABLE} %}`)).body;

/** The parsed template (parsed once; the last few kept). */
function parse(template: string): Template {
  let parsed = compiled.get(template);
  if (parsed === undefined) {
    parsed = new Template(template);
    parsed.parsed.body.unshift(...SET_RAISE);
    if (compiled.size >= 8) compiled.delete(compiled.keys().next().value as string);
    compiled.set(template, parsed);
  }
  return parsed;
}

/**
 * A conversation as the prompt text a chat model was trained on: the Jinja `template` rendered as
 * transformers 5's `apply_chat_template(tokenize=False)` renders it (trim_blocks and lstrip_blocks,
 * `raise_exception`, `strftime_now`, Python's `tojson`), with `messages`, `tools`, `documents`,
 * `add_generation_prompt` and `variables` (special tokens, extra arguments) as its variables, and
 * the final message left open for `continueFinalMessage`. `caller` and `source` name the call and
 * the template's file in errors. A template that calls `raise_exception` is a `ChatTemplateError`
 * with its own message (`failure: 'raised'`); one that fails to parse or render, a
 * `ChatTemplateError` with the engine's (`failure: 'render'`); bad messages or options, an
 * `InvalidArgumentError`.
 *
 * @example
 * renderChatTemplate("{% for m in messages %}<|{{ m.role }}|>{{ m.content }}\n{% endfor %}", [{ role: 'user', content: 'Hi' }]); // '<|user|>Hi\n'
 */
export function renderChatTemplate(template: string, messages: readonly ChatMessage[], options: RenderChatTemplateOptions = {}, where: { readonly caller?: string; readonly source?: string } = {}): string {
  const caller = where.caller ?? 'renderChatTemplate';
  const source = where.source ?? 'template';
  const named = where.source === undefined ? 'the chat template' : `the chat template (${where.source})`;
  if (typeof template !== 'string') throw new InvalidArgumentError({ caller, argument: 'template', expected: 'a Jinja template (a string)', received: describeValue(template) });
  checkOptionKeys(options, [...RENDER_OPTION_KEYS], caller);
  const chat = checkChatMessages(messages, caller);
  const { addGenerationPrompt = false, continueFinalMessage = false, tools, documents, variables = {} } = options;
  if (typeof addGenerationPrompt !== 'boolean') throw new InvalidArgumentError({ caller, argument: 'addGenerationPrompt', expected: 'true or false', received: describeValue(addGenerationPrompt) });
  if (!(typeof continueFinalMessage === 'boolean' || (typeof continueFinalMessage === 'string' && continueFinalMessage !== ''))) throw new InvalidArgumentError({ caller, argument: 'continueFinalMessage', expected: 'true, false or the name of the field to continue', received: describeValue(continueFinalMessage) });
  if (continueFinalMessage !== false && addGenerationPrompt) {
    throw new InvalidArgumentError({ caller, argument: 'continueFinalMessage', expected: 'false with addGenerationPrompt: true (continue the final message, or start a new assistant turn, not both)', received: describeValue(continueFinalMessage) });
  }
  for (const [name, list] of [['tools', tools], ['documents', documents]] as const) {
    if (list !== undefined && !(Array.isArray(list) && list.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item)))) throw new InvalidArgumentError({ caller, argument: name, expected: 'a list of objects (JSON schemas for tools, { title, text } for documents)', received: describeValue(list) });
  }
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables) || isTensorLike(variables)) throw new InvalidArgumentError({ caller, argument: 'variables', expected: 'an object of template variables', received: describeValue(variables) });
  const reserved = Object.keys(variables).find((key) => RESERVED.includes(key));
  if (reserved !== undefined) throw new InvalidArgumentError({ caller, argument: `variables.${reserved}`, expected: `no variable the renderer sets (${RESERVED.join(', ')}): pass messages, tools, documents and addGenerationPrompt as options`, received: reserved });

  const field = continueFinalMessage === true ? 'content' : continueFinalMessage === false ? undefined : continueFinalMessage;
  const continued = field === undefined ? undefined : openFinalMessage(chat, field, template, caller);
  let rendered: string;
  try {
    const raise = (message: unknown) => {
      throw new TemplateRaised(String(message));
    };
    rendered = parse(template).render({ ...variables, [RAISE_VARIABLE]: raise, messages: chat, tools: tools ?? null, documents: documents ?? null, add_generation_prompt: addGenerationPrompt });
  } catch (error) {
    if (error instanceof AttnkitError) throw error;
    const templateMessage = error instanceof Error ? error.message : String(error);
    if (error instanceof TemplateRaised) throw new ChatTemplateError({ caller, failure: 'raised', source, templateMessage, message: `${named} refused the conversation: ${templateMessage}` });
    throw new ChatTemplateError({ caller, failure: 'render', source, templateMessage, message: `${named} cannot be rendered: ${templateMessage}`, cause: error });
  }
  return continued === undefined ? rendered : cutAtFinalMessage(rendered, continued, { caller, source, named });
}

/** transformers' continue_final_message: the text to continue, with the tag appended to the final message's field. */
function openFinalMessage(chat: ChatMessage[], field: string, template: string, caller: string): string {
  const last = chat.length - 1;
  const value = chat[last]![field];
  if (value === undefined || value === null) throw new InvalidArgumentError({ caller, argument: `messages[${last}].${field}`, expected: `a final message with "${field}" to continue (continueFinalMessage)`, received: describeValue(value) });
  if (!template.includes(field)) throw new InvalidArgumentError({ caller, argument: 'continueFinalMessage', expected: `a field the chat template reads ("${field}" is not in it)`, received: JSON.stringify(field) });
  if (typeof value === 'string') {
    chat[last] = { ...chat[last]!, [field]: value + CONTINUE_TAG };
    return value;
  }
  const parts = Array.isArray(value) ? (value as unknown[]).map((part) => (typeof part === 'object' && part !== null ? { ...(part as Record<string, unknown>) } : part)) : [];
  let index = parts.length - 1; // the last text part, as transformers takes it
  while (index >= 0 && !(typeof parts[index] === 'object' && parts[index] !== null && typeof (parts[index] as { text?: unknown }).text === 'string')) index -= 1;
  if (index < 0) throw new InvalidArgumentError({ caller, argument: `messages[${last}].${field}`, expected: 'text to continue (a string, or content parts with a text part)', received: describeValue(value) });
  const part = parts[index] as { text: string };
  const text = part.text;
  part.text = text + CONTINUE_TAG;
  chat[last] = { ...chat[last]!, [field]: parts };
  return text;
}

/** The rendered text up to where the continued message ends (its trailing spaces kept where the template kept them). */
function cutAtFinalMessage(rendered: string, continued: string, { caller, source, named }: { readonly caller: string; readonly source: string; readonly named: string }): string {
  const tag = CONTINUE_TAG.trim();
  if (!rendered.includes(continued.trim()) || !rendered.includes(tag)) {
    throw new ChatTemplateError({ caller, failure: 'render', source, message: `${named} does not show the final message to continue (continueFinalMessage): it changes or drops part of it. Final message: ${JSON.stringify(continued.trim().slice(0, 200))}` });
  }
  const at = rendered.lastIndexOf(tag);
  return rendered.slice(at, at + CONTINUE_TAG.length) === CONTINUE_TAG ? rendered.slice(0, at) : rendered.slice(0, at).trimEnd();
}
