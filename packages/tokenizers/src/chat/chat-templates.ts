import { InvalidArgumentError, closestName, describeValue } from '@attnkit/errors';
import { ChatTemplateError } from './chat-template-error.js';

/** A tokenizer folder's chat templates by name (`'default'`, `'tool_use'`, ...), and the file they came from. */
export interface ChatTemplates {
  readonly templates: ReadonlyMap<string, string>;
  /** For messages: `'chat_template.jinja'` or `'tokenizer_config.json "chat_template"'`. */
  readonly source: string;
}

const CONFIG_SOURCE = 'tokenizer_config.json "chat_template"';

/**
 * A folder's chat templates, as transformers 5 reads them: `chat_template.jinja` (its text, when the
 * folder has one) is the `'default'` template and wins over tokenizer_config.json; else
 * tokenizer_config.json's `chat_template`, a string (the `'default'` template) or a list of named
 * templates `[{ name, template }]`. No template: an empty map. A `chat_template` of another form is
 * an `InvalidArgumentError` naming the key.
 *
 * @example
 * chatTemplatesOf({ chat_template: [{ name: 'default', template: '...' }, { name: 'tool_use', template: '...' }] }).templates.size; // 2
 */
export function chatTemplatesOf(tokenizerConfig: Readonly<Record<string, unknown>>, chatTemplateFile?: string, caller = 'Tokenizer'): ChatTemplates {
  if (chatTemplateFile !== undefined) return { templates: new Map([['default', chatTemplateFile]]), source: 'chat_template.jinja' };
  const value = tokenizerConfig['chat_template'];
  if (value === undefined || value === null) return { templates: new Map(), source: CONFIG_SOURCE };
  if (typeof value === 'string') return { templates: new Map([['default', value]]), source: CONFIG_SOURCE };
  const named = Array.isArray(value) ? (value as unknown[]) : [];
  const valid = named.every((entry) => typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string' && typeof (entry as { template?: unknown }).template === 'string');
  if (!Array.isArray(value) || !valid) {
    throw new InvalidArgumentError({ caller, argument: 'tokenizer_config.json chat_template', expected: 'a Jinja template (a string) or a list of named templates [{ name, template }]', received: describeValue(value) });
  }
  return { templates: new Map(named.map((entry) => [(entry as { name: string }).name, (entry as { template: string }).template])), source: CONFIG_SOURCE };
}

/**
 * The template a conversation is rendered with, as transformers' `get_chat_template` picks it:
 * `templateName` if given (an unknown name is an `InvalidArgumentError` listing the folder's names);
 * else `'tool_use'` when there are tools and the folder has one, else `'default'`. A folder without a
 * template is a `ChatTemplateError` naming `chat_template.jinja` and tokenizer_config.json's key.
 *
 * @example
 * chooseChatTemplate(chatTemplatesOf(config), { templateName: 'tool_use' }, 'Tokenizer.applyChatTemplate');
 */
export function chooseChatTemplate(chat: ChatTemplates, choice: { readonly templateName?: string | undefined; readonly tools?: unknown }, caller: string): string {
  const names = [...chat.templates.keys()];
  if (names.length === 0) {
    throw new ChatTemplateError({
      caller,
      failure: 'missing',
      source: chat.source,
      message: 'the tokenizer has no chat template: its folder has no chat_template.jinja and tokenizer_config.json has no "chat_template" key. Use a chat (instruct) model\'s folder, or pass chatTemplate: a Jinja template text.',
    });
  }
  const listed = names.map((n) => `'${n}'`).join(', ');
  const { templateName } = choice;
  if (templateName !== undefined) {
    const template = typeof templateName === 'string' ? chat.templates.get(templateName) : undefined;
    if (template !== undefined) return template;
    const meant = typeof templateName === 'string' ? closestName(templateName, names) : undefined;
    throw new InvalidArgumentError({ caller, argument: 'templateName', expected: `one of the folder's chat templates (${listed})`, received: typeof templateName === 'string' ? `'${templateName}'` : describeValue(templateName), ...(meant === undefined ? {} : { hint: `Did you mean '${meant}'?` }) });
  }
  const picked = choice.tools !== undefined && chat.templates.has('tool_use') ? 'tool_use' : 'default';
  const template = chat.templates.get(picked);
  if (template === undefined) throw new InvalidArgumentError({ caller, argument: 'templateName', expected: `the name of one of the folder's chat templates (${listed}): it has several and none named 'default'`, received: 'none' });
  return template;
}
