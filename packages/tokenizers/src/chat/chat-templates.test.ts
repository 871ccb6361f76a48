import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { ChatTemplateError } from './chat-template-error.js';
import { chatTemplatesOf, chooseChatTemplate } from './chat-templates.js';
import { templateSpecialTokens } from './template-special-tokens.js';

const caller = 'Tokenizer.applyChatTemplate';

describe('chatTemplatesOf and chooseChatTemplate', () => {
  it('reads a string, named templates, and chat_template.jinja first', () => {
    expect([...chatTemplatesOf({ chat_template: 'T' }).templates]).toEqual([['default', 'T']]);
    const named = chatTemplatesOf({ chat_template: [{ name: 'default', template: 'D' }, { name: 'tool_use', template: 'U' }] });
    expect([...named.templates]).toEqual([['default', 'D'], ['tool_use', 'U']]);
    expect(chatTemplatesOf({ chat_template: 'T' }, 'J')).toEqual({ templates: new Map([['default', 'J']]), source: 'chat_template.jinja' });
    expect(chatTemplatesOf({}).templates.size).toBe(0);
    expect(() => chatTemplatesOf({ chat_template: [{ name: 'x' }] })).toThrow(InvalidArgumentError);
    expect(() => chatTemplatesOf({ chat_template: 3 })).toThrow("'tokenizer_config.json chat_template' must be a Jinja template (a string) or a list of named templates [{ name, template }]");
  });

  it("picks 'tool_use' with tools, 'default' otherwise, a named one on request", () => {
    const chat = chatTemplatesOf({ chat_template: [{ name: 'default', template: 'D' }, { name: 'tool_use', template: 'U' }] });
    expect([chooseChatTemplate(chat, {}, caller), chooseChatTemplate(chat, { tools: [] }, caller), chooseChatTemplate(chat, { templateName: 'tool_use' }, caller)]).toEqual(['D', 'U', 'U']);
    expect(chooseChatTemplate(chatTemplatesOf({ chat_template: 'D' }), { tools: [] }, caller)).toBe('D');
    const noDefault = chatTemplatesOf({ chat_template: [{ name: 'rag', template: 'R' }] });
    expect(() => chooseChatTemplate(noDefault, {}, caller)).toThrow("'templateName' must be the name of one of the folder's chat templates ('rag'): it has several and none named 'default'; received none.");
    expect(() => chooseChatTemplate(chat, { templateName: 'constructor' }, caller)).toThrow("('default', 'tool_use'); received 'constructor'.");
    expect(() => chooseChatTemplate(chatTemplatesOf({}), {}, caller)).toThrow(ChatTemplateError);
  });
});

describe('templateSpecialTokens', () => {
  it('gives every *_token of tokenizer_config.json as a string (AddedToken objects by content), and named extra tokens', () => {
    const config = { bos_token: { __type: 'AddedToken', content: '<s>' }, eos_token: '</s>', pad_token: null, image_token: '<image>', model_max_length: 8, extra_special_tokens: { audio_token: '<audio>', __proto__: '<x>' } };
    expect(templateSpecialTokens(JSON.parse(JSON.stringify(config)) as Record<string, unknown>)).toEqual({ bos_token: '<s>', eos_token: '</s>', image_token: '<image>', audio_token: '<audio>' });
    expect(templateSpecialTokens({ extra_special_tokens: ['<a>', '<b>'] })).toEqual({});
  });
});
