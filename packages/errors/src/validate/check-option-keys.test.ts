import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { checkOptionKeys } from './check-option-keys.js';

describe('checkOptionKeys', () => {
  it('returns an options object whose keys are all accepted', () => {
    const options = { mask: undefined, scale: 2 };
    expect(checkOptionKeys(options, ['mask', 'scale', 'bias'], 'f')).toBe(options);
    expect(checkOptionKeys({}, [], 'f')).toEqual({});
  });

  it('names the unknown key, the accepted keys and the likely one', () => {
    expect(() => checkOptionKeys({ attentionMask: 1 }, ['mask', 'scale'], 'scaledDotProductAttention')).toThrow(InvalidArgumentError);
    expect(() => checkOptionKeys({ attentionMask: 1 }, ['mask', 'scale'], 'scaledDotProductAttention')).toThrow(
      "scaledDotProductAttention: 'options' must be an object with only the keys mask, scale; received the unknown key 'attentionMask'. Did you mean 'mask'?",
    );
    expect(() => checkOptionKeys({ src_key_padding_mask: 1 }, ['srcKeyPaddingMask', 'srcMask'], 'layer.forwardTorch')).toThrow("received the unknown key 'src_key_padding_mask'. Did you mean 'srcKeyPaddingMask'?");
    expect(() => checkOptionKeys({ mask: 1 }, ['attentionMask', 'training'], 'mha.call')).toThrow("Did you mean 'attentionMask'?");
    expect(() => checkOptionKeys({ zzz: 1, [Symbol('s')]: 2 }, ['mask'], 'f')).toThrow("f: 'options' must be an object with only the keys mask; received the unknown keys 'zzz', symbol s.");
  });

  it('refuses a non-object with a typed error, and a bad key list', () => {
    expect(() => checkOptionKeys(null, ['mask'], 'f')).toThrow("f: 'options' must be an options object; received null.");
    expect(() => checkOptionKeys({}, undefined as never, 'f')).toThrow("checkOptionKeys: 'allowed' must be a list of the accepted option names; received undefined.");
  });
});
