import { describe, expect, it } from 'vitest';
import { AttnkitError } from '@attnkit/errors';
import { ChatTemplateError } from './chat-template-error.js';

describe('ChatTemplateError', () => {
  it('keeps the caller, the message and the details it is given', () => {
    const error = new ChatTemplateError({ caller: 'applyChatTemplate', failure: 'raised', source: 'chat_template.jinja', templateMessage: 'no system role', message: 'the template raised: no system role' });
    expect(error).toBeInstanceOf(AttnkitError);
    expect([error.message, error.code, error.failure, error.source, error.templateMessage]).toEqual(['applyChatTemplate: the template raised: no system role', 'ATTNKIT_CHAT_TEMPLATE', 'raised', 'chat_template.jinja', 'no system role']);
  });

  it('builds an error from whatever it is given, so that reporting a failure never throws', () => {
    expect(new ChatTemplateError(undefined as never).message).toBe('applyChatTemplate: the chat template failed');
    expect(new ChatTemplateError(null as never)).toBeInstanceOf(ChatTemplateError);
    const throwing = { toString: () => { throw new Error('Tensor is disposed.'); } }; // as a disposed tensor in a template string
    const error = new ChatTemplateError({ caller: throwing, message: 42 } as never);
    expect(error.message).toMatch(/^.+: number 42$/);
  });
});
