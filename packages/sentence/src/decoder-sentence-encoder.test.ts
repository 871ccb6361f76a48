import { readFileSync } from 'node:fs';
import { memory } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { ModelLoadError } from '@attnkit/hub';
import { loadSentenceEncoder } from './load-sentence-encoder.js';
import type { SentenceEncoder } from './sentence-encoder.js';
import { isDecoderModel } from './sentence-transformer-model.js';

// A sentence-transformers folder whose Transformer is a decoder (Qwen3-Embedding layout, from
// tooling/reference/make_decoder_embedding_fixtures.py): what loads, and what is refused.
const fixtures = decodeURIComponent(new URL('../../../tooling/reference/fixtures/', import.meta.url).pathname);
const QWEN = `${fixtures}sentence-decoders/qwen3-lasttoken/`;
const FILES = ['modules.json', 'config_sentence_transformers.json', 'sentence_bert_config.json', 'config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json', '1_Pooling/config.json', '2_Normalize/config.json'];
/** The qwen3 folder as `{ files }`, with some files replaced. */
const filesWith = (changes: Record<string, unknown> = {}) => ({ files: Object.fromEntries(FILES.map((f) => [f, f in changes ? new TextEncoder().encode(JSON.stringify(changes[f])) : readFileSync(QWEN + f)])) });
const json = (file: string) => JSON.parse(readFileSync(QWEN + file, 'utf8')) as Record<string, unknown>;

let model: SentenceEncoder;
beforeAll(async () => {
  await useBackend('cpu');
  model = await loadSentenceEncoder(QWEN);
});
afterAll(() => model.dispose());

describe('a decoder sentence-transformers folder', () => {
  it('loads the headless decoder, the left-padding tokenizer, last-token pooling and the prompts', () => {
    expect(isDecoderModel(model.encoder)).toBe(true);
    expect(model.encoder.config.modelType).toBe('qwen3');
    expect(model.tokenizer.paddingSide).toBe('left');
    expect(model.pooling?.config).toEqual({ embeddingDimension: 32, modes: ['lasttoken'], includePrompt: true });
    expect(model.folder.modules.map((m) => m.type)).toEqual(['Normalize']);
    expect([...model.folder.prompts.keys()].sort()).toEqual(['document', 'query']);
    expect(model.maxSeqLength).toBe(64);
    expect(model.embeddingDimension).toBe(32);
  });

  it('is told apart from an encoder folder', async () => {
    const bert = await loadSentenceEncoder(`${fixtures}sentence/bert-lasttoken`);
    expect(isDecoderModel(bert.encoder)).toBe(false);
    expect(bert.tokenizer.paddingSide).toBe('right');
    bert.dispose();
  });

  it('gives an empty prompt and no prompt the same embeddings, a named prompt others, and leaks nothing', async () => {
    const before = memory().numTensors;
    const none = await model.encode(['The cat sat', 'good']);
    const empty = await model.encode(['The cat sat', 'good'], { promptName: 'document' });
    const query = await model.encode(['The cat sat', 'good'], { promptName: 'query' });
    expect(await empty.data()).toEqual(await none.data());
    const gap = Math.max(...(await query.data()).map((v, i) => Math.abs(v - none.dataSync()[i]!)));
    expect(gap).toBeGreaterThan(1e-2);
    [none, empty, query].forEach((t) => t.dispose());
    expect(memory().numTensors).toBe(before);
  });

  it.each<[string, () => Promise<unknown>, string]>([
    ['an unknown prompt name', () => model.encode(['a'], { promptName: 'passage' }), "SentenceEncoder.encode: 'promptName' must be one of the folder's prompts ('document', 'query'); received string 'passage'."],
    ['a prompt that is not a string', () => model.encode(['a'], { prompt: 3 as never }), "SentenceEncoder.encode: 'prompt' must be a string; received number 3."],
    ['a text that is not a string', () => model.encode(['a', null as never]), "SentenceEncoder.encode: 'texts[1]' must be a string; received null."],
  ])('refuses %s with an InvalidArgumentError', async (_, call, message) => {
    const before = memory().numTensors;
    const error = await call().catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toBe(message);
    expect(memory().numTensors).toBe(before);
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['a model_type neither an encoder nor a decoder', { 'config.json': { ...json('config.json'), model_type: 'gpt_neox' } }, /^loadSentenceEncoder: config\.json in the given files has model_type "gpt_neox"; a Transformer module attnkit loads is an encoder \(bert, distilbert, roberta, xlm-roberta, electra, mpnet, roformer, modernbert\) or a decoder \(gpt2, llama, mistral, qwen2, qwen3\)\./],
    ['a Pooling wider than the decoder', { '1_Pooling/config.json': { embedding_dimension: 64, pooling_mode: 'lasttoken', include_prompt: true } }, /^SentenceEncoder: 'pooling' must be embedding_dimension = the encoder's hidden size 32; received 64\.$/],
    ['a default prompt name that is not one of the prompts', { 'config_sentence_transformers.json': { ...json('config_sentence_transformers.json'), default_prompt_name: 'passage' } }, /^loadSentenceEncoder: config_sentence_transformers\.json in the given files has default_prompt_name "passage", which is not one of its prompts \(document, query\)\.$/],
    ['a padding side transformers does not have', { 'tokenizer_config.json': { ...json('tokenizer_config.json'), padding_side: 'both' } }, /^loadTokenizer: the tokenizer cannot be built: Tokenizer: 'tokenizerConfig\.padding_side' must be 'left' or 'right' \(as transformers accepts\); received string 'both'\.$/],
  ])('refuses %s, leaving no tensor behind', async (_, changes, message) => {
    const before = memory().numTensors;
    const error = await loadSentenceEncoder(filesWith(changes)).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect([ModelLoadError, InvalidArgumentError].some((type) => error instanceof type), String(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
    expect(memory().numTensors).toBe(before);
  });
});
