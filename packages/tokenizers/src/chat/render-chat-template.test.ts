import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { ChatTemplateError } from './chat-template-error.js';
import { renderChatTemplate } from './render-chat-template.js';

const CHATML = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";
const user = { role: 'user', content: 'Hi' };

describe('renderChatTemplate', () => {
  it('renders messages, add_generation_prompt and variables (which win over nothing the renderer sets)', () => {
    expect(renderChatTemplate(CHATML, [user], { addGenerationPrompt: true })).toBe('<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n');
    expect(renderChatTemplate('{{ bos_token }}{{ tools | length }}{{ documents is none }}', [user], { tools: [{ name: 'f' }], variables: { bos_token: '<s>' } })).toBe('<s>1true');
  });

  it('continues the last text part of content parts, and cuts trimmed trailing spaces as transformers does', () => {
    const parts = [{ type: 'image' }, { type: 'text', text: 'The answer is' }, { type: 'image' }];
    const template = "{% for m in messages %}[{{ m.role }}]{% if m.content is string %}{{ m.content | trim }}{% else %}{% for p in m.content %}{% if p.text %}{{ p.text }}{% endif %}{% endfor %}{% endif %}</s>{% endfor %}";
    expect(renderChatTemplate(template, [user, { role: 'assistant', content: parts }], { continueFinalMessage: true })).toBe('[user]Hi</s>[assistant]The answer is');
    expect(parts[1]).toEqual({ type: 'text', text: 'The answer is' }); // the caller's message is not changed
    expect(renderChatTemplate(template, [user, { role: 'assistant', content: 'Paris is  ' }], { continueFinalMessage: true })).toBe('[user]Hi</s>[assistant]Paris is');
    const reasoning = "{% for m in messages %}{{ m.reasoning }}|{{ m.content }}{% endfor %}";
    expect(renderChatTemplate(reasoning, [{ role: 'assistant', content: 'x', reasoning: 'Because' }], { continueFinalMessage: 'reasoning' })).toBe('Because');
  });

  it('wraps a template that fails to parse or render, and keeps raise_exception\'s own message', () => {
    const raised = thrown(() => renderChatTemplate("{{ raise_exception('Only user and assistant roles are supported!') }}", [user]));
    expect(raised).toBeInstanceOf(ChatTemplateError);
    expect([(raised as ChatTemplateError).failure, (raised as ChatTemplateError).templateMessage]).toEqual(['raised', 'Only user and assistant roles are supported!']);
    expect(raised.message).toBe('renderChatTemplate: the chat template refused the conversation: Only user and assistant roles are supported!');
    const broken = thrown(() => renderChatTemplate('{% for m in messages %}{{ m.content }}', [user]));
    expect(broken).toBeInstanceOf(ChatTemplateError);
    expect((broken as ChatTemplateError).failure).toBe('render');
    expect(broken.message).toMatch(/^renderChatTemplate: the chat template cannot be rendered: .+/);
    const failing = thrown(() => renderChatTemplate('{{ messages[0].content.no_such_method() }}', [user]));
    expect((failing as ChatTemplateError).failure).toBe('render');
    const dropped = thrown(() => renderChatTemplate('{% for m in messages %}{{ m.role }}{% endfor %} content', [user], { continueFinalMessage: true }));
    expect(dropped.message).toContain('does not show the final message to continue');
  });

  it.each([
    [[], "'messages' must be a non-empty list of messages { role: string, content: string | parts | null }; received an empty list."],
    ['Hi', "'messages' must be a non-empty list"],
    [[{ content: 'Hi' }], "'messages[0].role' must be a role such as 'system', 'user' or 'assistant'; received undefined."],
    [[user, { role: 'assistant' }], "'messages[1].content' must be text, a list of content parts, an object or null (left out only with tool_calls); received undefined."],
    [[{ role: 'user', content: 42 }], "'messages[0].content' must be text"],
    [[null], "'messages[0]' must be a message { role, content }; received null."],
  ])('refuses messages %j', (messages, message) => {
    const error = thrown(() => renderChatTemplate(CHATML, messages as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toContain(message);
  });

  it('refuses options it cannot use', () => {
    expect(() => renderChatTemplate(CHATML, [user], { addGenerationPrompt: true, continueFinalMessage: true })).toThrow("'continueFinalMessage' must be false with addGenerationPrompt: true");
    expect(() => renderChatTemplate(CHATML, [user], { variables: { messages: [] } })).toThrow("'variables.messages' must be no variable the renderer sets");
    expect(() => renderChatTemplate(CHATML, [user], { variables: { raise_exception: 1 } })).toThrow("'variables.raise_exception'");
    expect(() => renderChatTemplate(CHATML, [user], { tools: 'f' as never })).toThrow("'tools' must be a list of objects");
    expect(() => renderChatTemplate(CHATML, [user], { addGenerationPrompt: 'yes' as never })).toThrow("'addGenerationPrompt' must be true or false");
    expect(() => renderChatTemplate(CHATML, [user], { continueFinalMessage: 'missing' })).toThrow("'messages[0].missing' must be a final message with \"missing\" to continue");
    expect(() => renderChatTemplate(CHATML, [user], { generationPrompt: true } as never)).toThrow(InvalidArgumentError);
  });
});
