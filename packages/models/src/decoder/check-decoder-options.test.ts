import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { memory, tensor } from '@tensorflow/tfjs-core';
import { GPT2Attention, GPT2Block, GPT2LMHeadModel, GPT2Model } from '../gpt2/gpt2-model.js';
import { parseGpt2Config } from '../gpt2/gpt2-config.js';
import { parseQwen3Config } from '../qwen3/qwen3-config.js';
import { Qwen3ForCausalLM, Qwen3Model } from '../qwen3/qwen3-model.js';
import { parseLlamaConfig } from '../llama/llama-config.js';
import { LlamaModel } from '../llama/llama-model.js';
import { checkDecoderOptions } from './check-decoder-options.js';
import { DecoderForCausalLM } from './decoder-for-causal-lm.js';
import { DecoderLayer } from './decoder-layer.js';
import type { DecoderCheckpoint } from './rotary-decoder-model.js';
import type { DecoderConfig } from './decoder-config.js';

const config = (family: string) => JSON.parse(readFileSync(new URL(`../../../../tooling/reference/fixtures/decoders/${family}/config.json`, import.meta.url), 'utf8')) as unknown;
const gpt2 = parseGpt2Config(config('gpt2'));
const qwen3 = parseQwen3Config(config('qwen3'));
const llama = parseLlamaConfig(config('llama'));
beforeAll(() => useBackend('cpu'));

describe('checkDecoderOptions', () => {
  it('passes undefined options through and takes any integer seed (negative ones too, as torch.manual_seed)', () => {
    expect(checkDecoderOptions({}, ['seed'], 'X')).toEqual({});
    expect(checkDecoderOptions({ seed: -3 }, ['seed'], 'X')).toEqual({ seed: -3 });
    expect(checkDecoderOptions({ seed: 1, generationConfig: { eosTokenIds: [2] } }, ['seed', 'generationConfig'], 'X').seed).toBe(1);
  });

  it.each([
    [null, /X: 'options' must be an object \{ seed\? \}/],
    [{ seed: null }, /X: 'seed' must be an integer/],
    [{ seed: 1.5 }, /'seed'/],
    [{ sead: 1 }, /unknown key 'sead'/],
  ])('refuses options %j', (options, message) => {
    expect(() => checkDecoderOptions(options as never, ['seed'], 'X')).toThrow(InvalidArgumentError);
    expect(() => checkDecoderOptions(options as never, ['seed'], 'X')).toThrow(message);
  });

  it('refuses a generationConfig that parseGenerationConfig did not give', () => {
    expect(() => checkDecoderOptions({ generationConfig: {} }, ['generationConfig'], 'X')).toThrow(/'generationConfig.eosTokenIds' must be a list of token ids/);
    expect(() => checkDecoderOptions({ generationConfig: 'x' as never }, ['generationConfig'], 'X')).toThrow(/'generationConfig' must be a generation config/);
  });
});

describe('the decoders refuse, before allocating', () => {
  it.each([
    ['GPT2Model', () => new GPT2Model(gpt2, undefined, { seed: null } as never), /GPT2Model: 'seed' must be an integer/],
    ['LlamaModel', () => new LlamaModel(llama, undefined, Number.NaN as never), /LlamaModel: 'options' must be an object/],
    ['Qwen3Model', () => new Qwen3Model(qwen3, null, null as never), /Qwen3Model: 'options' must be an object/],
    ['GPT2LMHeadModel', () => new GPT2LMHeadModel(gpt2, null, { generationConfig: {} } as never), /GPT2LMHeadModel: 'generationConfig.eosTokenIds'/],
    ['Qwen3ForCausalLM', () => new Qwen3ForCausalLM(qwen3, null, { seed: 'x' } as never), /Qwen3ForCausalLM: 'seed' must be an integer/],
    ['GPT2Attention', () => new GPT2Attention(gpt2, undefined as never), /GPT2Attention: 'layerIndex' must be an integer from 0 to 1/],
    ['GPT2Block', () => new GPT2Block(gpt2, 2), /GPT2Block: 'layerIndex' must be an integer from 0 to 1/],
    ['DecoderLayer', () => new DecoderLayer(qwen3, null as never), /DecoderLayer: 'layerIndex' must be an integer from 0 to 1/],
  ])('%s: hostile options or layer index', (_, make, message) => {
    expect(make).toThrow(InvalidArgumentError);
    expect(make).toThrow(message);
  });

  it('a causal LM whose config is not the one its base was built from (DecoderForCausalLM is the base of every family)', () => {
    class Tiny extends DecoderForCausalLM<Qwen3Model> {
      constructor(c: DecoderConfig) {
        super(c, 'model', (k: DecoderCheckpoint) => new Qwen3Model(qwen3, k), null, {});
      }
    }
    expect(() => new Tiny(null as never)).toThrow(/Tiny: 'config' must be a parsed decoder config/);
    expect(() => new Tiny(gpt2)).toThrow(/Tiny: 'config.modelType' must be that of the config its base model was built from \("qwen3"\); received string 'gpt2'/);
    const model = new Tiny(qwen3);
    expect(model.config).toBe(qwen3);
    model.dispose();
  });
});

describe('the decoder blocks refuse at forward', () => {
  it('GPT-2 attention and block: a cache that is no KvCache (null is not "no cache")', () => {
    const block = new GPT2Block(gpt2, 0);
    const hidden = tensor([[[...Array(32).keys()]]], [1, 1, 32]);
    const before = memory().numTensors;
    expect(() => block.forward(hidden, undefined, null as never)).toThrow(/GPT2Block.forward: 'cache' must be a KvCache \(model.createCache\(\)\) or undefined; received null/);
    expect(() => block.attn.forward(hidden, undefined, {} as never)).toThrow(/GPT2Attention.forward: 'cache' must be a KvCache/);
    expect(memory().numTensors, 'tensors left by the refusals').toBe(before);
    block.forward(hidden, undefined, undefined).dispose();
    block.dispose();
    hidden.dispose();
  });

  it('DecoderLayer: options without the rotary position embeddings (a layer never attends without them)', () => {
    const layer = new DecoderLayer(qwen3, 0);
    const hidden = tensor(new Float32Array(32), [1, 1, 32]);
    const before = memory().numTensors;
    expect(() => layer.forward(hidden, undefined as never)).toThrow(/DecoderLayer.forward: 'options' must be an object \{ positionEmbeddings, attentionMask, cache \}/);
    expect(() => layer.forward(hidden, { attentionMask: undefined, cache: undefined } as never)).toThrow(/DecoderLayer.forward: 'positionEmbeddings' must be the rotary \{ cos, sin \}/);
    expect(memory().numTensors, 'tensors left by the refusals').toBe(before);
    layer.dispose();
    hidden.dispose();
  });
});
