import { readFileSync } from 'node:fs';
import { memory, type Tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { ModelLoadError, readSafetensors, writeSafetensors } from '@attnkit/hub';
import { Int8Linear, Linear } from '@attnkit/nn';
import { loadCausalLM, loadDecoder } from './load-causal-lm.js';

const path = (name: string) => decodeURIComponent(new URL(`../../../../tooling/reference/fixtures/decoders/${name}/`, import.meta.url).pathname);
const fileOf = (name: string, file: string) => new Uint8Array(readFileSync(`${path(name)}${file}`));
const tensorsOf = (name: string) => new Map([...readSafetensors(fileOf(name, 'model.safetensors')).tensors].map(([key, t]) => [key, { shape: t.shape, values: t.values as Float32Array }]));
/** A folder given as files: the fixture's config.json and the tensors `edit` makes of its checkpoint. */
function folder(name: string, edit: (tensors: Map<string, { shape: readonly number[]; values: Float32Array }>) => void = () => {}, config?: (json: Record<string, unknown>) => Record<string, unknown>) {
  const tensors = tensorsOf(name);
  edit(tensors);
  const json = JSON.parse(new TextDecoder().decode(fileOf(name, 'config.json'))) as Record<string, unknown>;
  return { files: { 'config.json': JSON.stringify(config === undefined ? json : config(json)), 'model.safetensors': writeSafetensors(Object.fromEntries(tensors)) } };
}
const logitsOf = (model: { forward(i: { inputIds: number[][] }): { logits: Tensor } }) => {
  const { logits } = model.forward({ inputIds: [[5, 17, 42, 9, 100]] });
  const values = Array.from(logits.dataSync());
  logits.dispose();
  return values;
};
const failure = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a rejection'); }, (e: unknown) => e as Error);

beforeAll(() => useBackend('cpu'));

describe('loadCausalLM and loadDecoder', () => {
  it('build the class of each model_type, and free every tensor on dispose', async () => {
    const before = memory().numTensors;
    for (const [name, causal, base] of [['gpt2', 'GPT2LMHeadModel', 'GPT2Model'], ['llama', 'LlamaForCausalLM', 'LlamaModel'], ['mistral', 'MistralForCausalLM', 'MistralModel'], ['qwen2', 'Qwen2ForCausalLM', 'Qwen2Model'], ['qwen3', 'Qwen3ForCausalLM', 'Qwen3Model']] as const) {
      const model = await loadCausalLM(path(name));
      const decoder = await loadDecoder(path(name));
      expect([model.constructor.name, model.base.constructor.name, decoder.constructor.name]).toEqual([causal, base, base]);
      model.dispose();
      decoder.dispose();
    }
    expect(memory().numTensors).toBe(before);
  });

  it('loadDecoder gives the causal LM\'s hidden states, telling that it skips the head', async () => {
    const notices: string[] = [];
    const decoder = await loadDecoder(path('qwen3-untied'), { onNotice: (m) => notices.push(m) });
    const model = await loadCausalLM(path('qwen3-untied'));
    expect(notices).toEqual(['loadDecoder: skipped lm_head.weight (the head of a causal LM; the headless model does not use it).']);
    const a = decoder.forward({ inputIds: [[5, 6, 7]] }).lastHiddenState;
    const b = model.base.forward({ inputIds: [[5, 6, 7]] }).lastHiddenState;
    expect(a.shape).toEqual([1, 3, 32]);
    expect(Array.from(a.dataSync())).toEqual(Array.from(b.dataSync()));
    [a, b].forEach((t) => t.dispose());
    [decoder, model].forEach((m) => m.dispose());
  });

  it('loads checkpoints saved from the base model (no model. prefix) and GPT-2\'s original layout (no transformer., attn.bias buffers), and uses a tied head whatever lm_head.weight says', async () => {
    const reference = await loadCausalLM(path('llama'));
    const headless = await loadCausalLM(folder('llama', (t) => {
      for (const [key, value] of [...t]) if (key.startsWith('model.')) { t.delete(key); t.set(key.slice('model.'.length), value); }
    }));
    expect(logitsOf(headless)).toEqual(logitsOf(reference));
    const gpt2 = await loadCausalLM(path('gpt2'));
    const original = await loadCausalLM(folder('gpt2', (t) => {
      for (const [key, value] of [...t]) { t.delete(key); t.set(key.slice('transformer.'.length), value); }
      t.set('h.0.attn.bias', { shape: [1, 1, 4, 4], values: new Float32Array(16) });
      t.set('h.1.attn.masked_bias', { shape: [], values: Float32Array.of(-1e4) });
    }));
    expect(logitsOf(original)).toEqual(logitsOf(gpt2));
    const notices: string[] = [];
    const tied = await loadCausalLM(folder('qwen3', (t) => t.set('lm_head.weight', { shape: [320, 32], values: new Float32Array(320 * 32) })), { onNotice: (m) => notices.push(m) });
    const qwen3 = await loadCausalLM(path('qwen3'));
    expect(logitsOf(tied)).toEqual(logitsOf(qwen3));
    expect(notices).toEqual(['loadCausalLM: skipped lm_head.weight (tie_word_embeddings: the head is the token embedding).']);
    [reference, headless, gpt2, original, tied, qwen3].forEach((m) => m.dispose());
  });

  it('transposes GPT-2\'s Conv1D weights ([in, out]) into Linear layers ([out, in])', async () => {
    const model = await loadCausalLM(path('gpt2'));
    const stored = tensorsOf('gpt2').get('transformer.h.0.mlp.c_fc.weight')!; // [32, 128]
    const weight = model.stateDict().get('transformer.h.0.mlp.c_fc.weight')!;
    expect([stored.shape, weight.shape]).toEqual([[32, 128], [128, 32]]);
    const w = weight.arraySync() as number[][];
    expect(w[5]![3]).toBe(stored.values[3 * 128 + 5]);
    model.dispose();
  });

  it('refuses, as one ModelLoadError each: an encoder folder (naming the decoder types), missing and unexpected tensors, two tensors for one weight, a bad generation_config.json', async () => {
    const encoder = await failure(loadCausalLM(decodeURIComponent(new URL('../../../../tooling/reference/fixtures/families/bert/', import.meta.url).pathname)));
    expect(encoder).toBeInstanceOf(ModelLoadError);
    expect(encoder.message).toMatch(/^loadCausalLM: config\.json in .* is not a supported decoder config: parseDecoderConfig: 'model_type' must be one of "gpt2", "llama", "mistral", "qwen2", "qwen3"; received "bert"\./);
    const missing = await failure(loadCausalLM(folder('llama', (t) => { t.delete('lm_head.weight'); t.set('model.extra', { shape: [1], values: new Float32Array(1) }); })));
    expect(missing).toBeInstanceOf(ModelLoadError);
    expect(missing.message).toBe("loadCausalLM: model.safetensors in the given files does not match config.json: LlamaForCausalLM.loadStateDict: the state dict does not fit the module. 1 missing: lm_head.weight. 1 unexpected: model.extra.");
    const twice = await failure(loadCausalLM(folder('llama', (t) => t.set('norm.weight', t.get('model.norm.weight')!))));
    expect(twice.message).toMatch(/has several tensors for one weight: model\.norm\.weight and norm\.weight \(both model\.norm\.weight\)\. Keep one of each\.$/);
    const generation = { files: { ...folder('qwen2').files, 'generation_config.json': JSON.stringify({ top_p: 2 }) } };
    const bad = await failure(loadCausalLM(generation));
    expect(bad).toBeInstanceOf(ModelLoadError);
    expect(bad.message).toMatch(/^loadCausalLM: generation_config\.json in .* is not a supported generation config: parseGenerationConfig: 'top_p' must be a number in \(0, 1\]; received 2\.$/);
    const shape = await failure(loadCausalLM(folder('qwen2', () => {}, (json) => ({ ...json, intermediate_size: 48 }))));
    expect(shape.message).toMatch(/mis-shaped: model\.layers\.0\.mlp\.gate_proj\.weight \(expected \[48, 32\] float32, received \[64, 32\] float32\)/);
  });

  it('checks its options as loadEncoder does, and leaves no tensor when aborted', async () => {
    const error = await failure(loadCausalLM(path('llama'), { quantise: 'int8' } as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/^loadCausalLM: 'options' must be an object with only the keys .*; received the unknown key 'quantise'\. Did you mean 'quantize'\?$/);
    const before = memory().numTensors;
    const controller = new AbortController();
    controller.abort();
    await expect(loadCausalLM(path('llama'), { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(memory().numTensors).toBe(before);
  });

  it('quantize: \'int8\' makes every Linear an Int8Linear, lm_head included, within a few percent of the float logits', async () => {
    const float = await loadCausalLM(path('qwen3-untied'));
    const int8 = await loadCausalLM(path('qwen3-untied'), { quantize: 'int8' });
    const linears = int8.namedModules().filter(([, m]) => m instanceof Linear);
    const quantized = int8.namedModules().filter(([, m]) => m instanceof Int8Linear).map(([p]) => p);
    expect(linears).toEqual([]);
    expect(quantized).toContain('lm_head');
    expect(quantized).toHaveLength(2 * 7 + 1);
    const [a, b] = [logitsOf(float), logitsOf(int8)];
    const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    expect(norm(a.map((x, i) => x - b[i]!)) / norm(a)).toBeLessThan(0.05);
    const { tokens } = await int8.generate([5, 6, 7], { maxNewTokens: 4, eosTokenId: null });
    expect(tokens[0]).toHaveLength(4);
    [float, int8].forEach((m) => m.dispose());
  });

  it.each(['gpt2', 'qwen2-tied'])('quantize: \'int8\' gives a tied head (%s) an int8 copy of the token embedding, the lookup staying float', async (name) => {
    const float = await loadCausalLM(path(name));
    const before = memory().numTensors;
    const int8 = await loadCausalLM(path(name), { quantize: 'int8' });
    expect(int8.config.tieWordEmbeddings).toBe(true);
    const head = new Map(int8.namedModules()).get('lm_head');
    expect(head).toBeInstanceOf(Int8Linear);
    expect([(head as Int8Linear).outFeatures, (head as Int8Linear).inFeatures]).toEqual([int8.config.vocabSize, int8.config.hiddenSize]);
    expect(int8.namedParameters().some(([key]) => key.startsWith('lm_head.'))).toBe(false); // no float head, no bias
    const embedding = (m: typeof float) => m.namedParameters().find(([key]) => /(wte|embed_tokens)\.weight$/.test(key))![1].dataSync();
    expect(Array.from(embedding(int8))).toEqual(Array.from(embedding(float)));
    const [a, b] = [logitsOf(float), logitsOf(int8)];
    const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    expect(norm(a.map((x, i) => x - b[i]!)) / norm(a)).toBeLessThan(0.05);
    expect(b).not.toEqual(a); // the head's arithmetic is int8 now
    int8.quantizeTiedHead(); // a second call changes nothing
    expect(logitsOf(int8)).toEqual(b);
    int8.dispose();
    expect(memory().numTensors).toBe(before);
    float.dispose();
  });
});
