import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import chatFixtures from '@attnkit/reference/fixtures/chat-templates.json' with { type: 'json' };
import { loadTokenizer } from '../load-tokenizer.js';
import type { Tokenizer } from '../tokenizer.js';
import type { ApplyChatTemplateOptions } from './apply-chat-template.js';
import type { ChatMessage } from './chat-message.js';
import { ChatTemplateError } from './chat-template-error.js';

// Exact texts and ids against transformers' apply_chat_template (tooling/reference/make_chat_template_fixtures.py):
// Llama 3.2's template (tokenizer_config.json string, bos_token as an AddedToken object), Qwen3's (chat_template.jinja)
// and SmolLM2's (a list of named templates in tokenizer_config.json).
interface ChatCase {
  readonly title: string;
  readonly messages: ChatMessage[];
  readonly options: Record<string, unknown>;
  readonly text?: string;
  readonly ids?: number[];
  readonly error?: { readonly type: string; readonly message: string };
}
const fixtures = chatFixtures as unknown as { folders: Record<string, { folder: string; cases: ChatCase[] }> };
const folder = (relative: string) => decodeURIComponent(new URL(`../../../../tooling/reference/fixtures/${relative}/`, import.meta.url).pathname);

/** transformers' keyword arguments as options: the named ones by their names here, the rest as template variables. */
function optionsOf(given: Record<string, unknown>): ApplyChatTemplateOptions {
  const { add_generation_prompt: addGenerationPrompt, continue_final_message: continueFinalMessage, tools, documents, chat_template: templateName, ...variables } = given;
  return {
    ...(addGenerationPrompt === undefined ? {} : { addGenerationPrompt: addGenerationPrompt as boolean }),
    ...(continueFinalMessage === undefined ? {} : { continueFinalMessage: continueFinalMessage as boolean }),
    ...(tools === undefined ? {} : { tools: tools as Record<string, unknown>[] }),
    ...(documents === undefined ? {} : { documents: documents as Record<string, unknown>[] }),
    ...(templateName === undefined ? {} : { templateName: templateName as string }),
    ...(Object.keys(variables).length === 0 ? {} : { variables }),
  };
}

const tokenizers = new Map<string, Promise<Tokenizer>>();
const tokenizerOf = (name: string) => {
  if (!tokenizers.has(name)) tokenizers.set(name, loadTokenizer(folder(fixtures.folders[name]!.folder)));
  return tokenizers.get(name)!;
};

describe('Tokenizer.applyChatTemplate equals transformers', () => {
  it('has the three folders and their cases', () => {
    expect(Object.fromEntries(Object.entries(fixtures.folders).map(([name, f]) => [name, f.cases.length]))).toEqual({ llama3: 10, qwen3: 9, smollm2: 6 });
  });

  const rendered = Object.entries(fixtures.folders).flatMap(([name, f]) => f.cases.filter((c) => c.error === undefined).map((c) => [name, c.title, c] as const));
  it.each(rendered)('%s: %s — the same text and ids', async (name, _title, fixture) => {
    const tokenizer = await tokenizerOf(name);
    const options = optionsOf(fixture.options);
    expect(tokenizer.applyChatTemplate(fixture.messages, options)).toBe(fixture.text);
    expect(tokenizer.applyChatTemplate(fixture.messages, { ...options, tokenize: true })).toEqual(fixture.ids);
  });

  const refused = Object.entries(fixtures.folders).flatMap(([name, f]) => f.cases.filter((c) => c.error !== undefined).map((c) => [name, c.title, c] as const));
  it.each(refused)('%s: %s — refused as transformers refuses it', async (name, _title, fixture) => {
    expect(refused.length).toBe(4);
    const tokenizer = await tokenizerOf(name);
    const error = (() => {
      try {
        tokenizer.applyChatTemplate(fixture.messages, optionsOf(fixture.options));
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    if (fixture.error!.type === 'TemplateError') {
      // raise_exception: the template's own message
      expect(error).toBeInstanceOf(ChatTemplateError);
      expect((error as ChatTemplateError).failure).toBe('raised');
      expect((error as ChatTemplateError).templateMessage).toBe(fixture.error!.message);
      expect(error!.message).toBe(`Tokenizer.applyChatTemplate: the chat template (tokenizer_config.json "chat_template") refused the conversation: ${fixture.error!.message}`);
    } else {
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error!.message).toMatch(fixture.messages.length === 0 ? /'messages' must be a non-empty list of messages/ : /'continueFinalMessage' must be false with addGenerationPrompt: true/);
    }
  });

  it('reads chat_template.jinja (qwen3), a tokenizer_config.json string (llama3) and named templates (smollm2)', async () => {
    expect([...(await tokenizerOf('qwen3')).chatTemplates.keys()]).toEqual(['default']);
    expect([...(await tokenizerOf('llama3')).chatTemplates.keys()]).toEqual(['default']);
    expect([...(await tokenizerOf('smollm2')).chatTemplates.keys()]).toEqual(['default', 'no_system']);
  });

  it('names the template names a folder has for an unknown one, and the files for a folder with none', async () => {
    const smol = await tokenizerOf('smollm2');
    expect(() => smol.applyChatTemplate([{ role: 'user', content: 'Hi' }], { templateName: 'no-system' })).toThrow("Tokenizer.applyChatTemplate: 'templateName' must be one of the folder's chat templates ('default', 'no_system'); received 'no-system'. Did you mean 'no_system'?");
    const plain = await loadTokenizer(folder('decoders/gpt2'));
    const error = (() => {
      try {
        plain.applyChatTemplate([{ role: 'user', content: 'Hi' }]);
      } catch (e) {
        return e as ChatTemplateError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ChatTemplateError);
    expect(error?.failure).toBe('missing');
    expect(error?.message).toContain('the tokenizer has no chat template: its folder has no chat_template.jinja and tokenizer_config.json has no "chat_template" key');
    // a template text given instead works on any tokenizer
    expect(plain.applyChatTemplate([{ role: 'user', content: 'Hi' }], { chatTemplate: '{{ eos_token }}{{ messages[0].content }}' })).toBe('<|endoftext|>Hi');
  });
});
