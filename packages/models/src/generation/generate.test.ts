import { memory } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError, UseAfterDisposeError } from '@attnkit/errors';
import { loadTokenizer, type Tokenizer } from '@attnkit/tokenizers';
import type { CausalLM } from '../decoder/decoder-for-causal-lm.js';
import { loadCausalLM } from '../load/load-causal-lm.js';
import type { GeneratedToken } from './generate-options.js';

// Generation on the tiny fixture models (tooling/reference/fixtures/decoders); its agreement with
// transformers' greedy generate is decoder-families.parity.test.ts'. Here: texts and tokenizers, sampling
// and seeds, stopping, streaming, aborting, the defaults of generation_config.json, and the typed errors.
const folder = (name: string) => new URL(`../../../../tooling/reference/fixtures/decoders/${name}/`, import.meta.url).pathname;
const FIXED = { eosTokenId: null, maxNewTokens: 12 } as const;
let qwen2: CausalLM;
let qwen3: CausalLM;
let gpt2: CausalLM;
let tokenizer: Tokenizer; // Qwen2Tokenizer (byte-level BPE), shared by the qwen folders
let gpt2Tokenizer: Tokenizer;

beforeAll(async () => {
  await useBackend('cpu');
  [qwen2, qwen3, gpt2] = await Promise.all([loadCausalLM(folder('qwen2')), loadCausalLM(folder('qwen3')), loadCausalLM(folder('gpt2'))]);
  [tokenizer, gpt2Tokenizer] = await Promise.all([loadTokenizer(folder('qwen2')), loadTokenizer(folder('gpt2'))]);
});
afterAll(() => [qwen2, qwen3, gpt2].forEach((m) => m.dispose()));

const ids = (text: string, t = tokenizer) => t.encode([text], { padding: false, truncation: false }).inputIds[0]!;

describe('generate: inputs and outputs', () => {
  it('takes texts with a tokenizer as it takes their ids, and a batch of texts row for row (left-padded)', async () => {
    const texts = ['The cat sat', 'ça coûte très cher 😀 and the'];
    const alone = await Promise.all(texts.map((text) => qwen2.generate(ids(text), FIXED)));
    const batch = await qwen2.generate(texts, { ...FIXED, tokenizer });
    expect(batch.tokens).toEqual(alone.map((r) => r.tokens[0]));
    expect(batch.texts).toEqual(batch.tokens.map((row) => tokenizer.decode(row)));
    expect(batch.finishReasons).toEqual(['length', 'length']);
    const ragged = await qwen2.generate(texts.map((text) => ids(text)), FIXED);
    expect(ragged.tokens).toEqual(batch.tokens);
    expect(ragged.texts).toBeUndefined();
  });

  it('tells onToken every token of every row in order, with the text it completes', async () => {
    const heard: GeneratedToken[] = [];
    const result = await gpt2.generate(['Hello world', 'The cat'], { ...FIXED, tokenizer: gpt2Tokenizer, onToken: (t) => heard.push(t) });
    for (const row of [0, 1]) {
      const mine = heard.filter((t) => t.row === row);
      expect(mine.map((t) => t.token)).toEqual(result.tokens[row]);
      expect(mine.map((t) => t.index)).toEqual(result.tokens[row]!.map((_, i) => i));
      expect(mine.map((t) => t.text).join('')).toBe(result.texts![row]!.slice(0, mine.map((t) => t.text).join('').length));
    }
  });

  it('streams text pieces that add up to the texts, and frees its cache when the loop breaks early', async () => {
    const pieces: string[] = [];
    const steps = qwen2.stream('The cat sat', { ...FIXED, maxNewTokens: 20, tokenizer });
    for await (const { row, text } of steps) {
      expect(row).toBe(0);
      pieces.push(text);
    }
    const { texts } = await qwen2.generate('The cat sat', { ...FIXED, maxNewTokens: 20, tokenizer });
    expect(pieces.join('')).toBe(texts![0]);
    const before = memory().numTensors;
    let seen = 0;
    for await (const _ of qwen2.stream('The cat sat', { ...FIXED, maxNewTokens: 20, tokenizer })) if (++seen === 2) break;
    expect(memory().numTensors).toBe(before);
  });

  it('stops a row at an end-of-sequence id (kept in its tokens) or a stop string (kept in its text), the others go on', async () => {
    const free = await qwen2.generate(['The cat sat', 'Hello world'], { ...FIXED, tokenizer });
    const eos = free.tokens[0]![4]!;
    const first = free.tokens[0]!.indexOf(eos);
    const stopped = await qwen2.generate(['The cat sat', 'Hello world'], { ...FIXED, tokenizer, eosTokenId: [eos] });
    expect(stopped.tokens[0]).toEqual(free.tokens[0]!.slice(0, first + 1));
    expect(stopped.finishReasons[0]).toBe('eos');
    const other = free.tokens[1]!.indexOf(eos);
    expect(stopped.tokens[1]).toEqual(other < 0 ? free.tokens[1] : free.tokens[1]!.slice(0, other + 1));
    const text = free.texts![1]!;
    const stop = text.slice(3, 6);
    const byString = await qwen2.generate(['The cat sat', 'Hello world'], { ...FIXED, tokenizer, stop: [stop, '\u0000never'] });
    expect(byString.finishReasons[1]).toBe('stop');
    expect(byString.texts![1]!.endsWith(stop) || byString.texts![1]!.includes(stop)).toBe(true);
    expect(byString.texts![1]!.length).toBeLessThan(text.length + 1);
    expect(text.startsWith(byString.texts![1]!)).toBe(true);
  });
});

describe('generate: sampling', () => {
  it('gives the same tokens for the same seed (cpu and wasm alike within a backend), other tokens for another seed', async () => {
    const sample = (seed: number) => qwen2.generate(ids('The cat sat'), { ...FIXED, maxNewTokens: 24, doSample: true, temperature: 1.5, topK: 0, seed });
    for (const backend of ['cpu', 'wasm']) {
      await useBackend(backend);
      const [a, b, c] = [await sample(1), await sample(1), await sample(2)];
      expect(a.tokens).toEqual(b.tokens);
      expect(a.tokens).not.toEqual(c.tokens);
    }
    await useBackend('cpu');
  });

  it('is greedy when the filters leave one token: topK 1, a tiny topP, minP 1', async () => {
    const greedy = await qwen2.generate(ids('Hello world'), { ...FIXED, doSample: false });
    for (const filter of [{ topK: 1 }, { topP: 1e-9 }, { minP: 1 }]) {
      expect((await qwen2.generate(ids('Hello world'), { ...FIXED, doSample: true, seed: 3, ...filter })).tokens).toEqual(greedy.tokens);
    }
  });

  it('applies generation_config.json as transformers does: qwen3\'s do_sample, temperature, top_k and top_p; llama\'s max_length', async () => {
    expect(qwen3.generationConfig).toEqual({ doSample: true, temperature: 0.6, topK: 20, topP: 0.95, eosTokenIds: [317, 319], padTokenId: 317 });
    const sampled = await qwen3.generate(ids('Hello'), { eosTokenId: null, maxNewTokens: 24, seed: 5 });
    const explicit = await qwen3.generate(ids('Hello'), { eosTokenId: null, maxNewTokens: 24, seed: 5, doSample: true, temperature: 0.6, topK: 20, topP: 0.95 });
    expect(sampled.tokens).toEqual(explicit.tokens);
    expect((await qwen3.generate(ids('Hello'), { eosTokenId: null, maxNewTokens: 24, seed: 6 })).tokens).not.toEqual(sampled.tokens);
    const llama = await loadCausalLM(folder('llama'));
    const prompt = [1, 20, 30, 40];
    expect((await llama.generate(prompt, { eosTokenId: null })).tokens[0]).toHaveLength(48 - prompt.length); // max_length 48, prompt included
    expect((await gpt2.generate([1, 2], { eosTokenId: null })).tokens[0]).toHaveLength(20); // no max_length: transformers' 20 new tokens
    llama.dispose();
  });
});

describe('generate: ending early, and what it leaves', () => {
  it('holds the same tensors from the first token to the last: nothing leaked per token, nothing after', async () => {
    const before = memory().numTensors;
    const held: number[] = [];
    await qwen2.generate(['The cat sat', 'Hi'], { ...FIXED, tokenizer, maxNewTokens: 30, onToken: (t) => { if (t.row === 0) held.push(memory().numTensors); } });
    expect(new Set(held.slice(1)).size).toBe(1);
    expect(memory().numTensors).toBe(before);
  });

  it('rejects with the signal\'s reason when aborted, leaving no tensor', async () => {
    const before = memory().numTensors;
    const controller = new AbortController();
    const run = qwen2.generate(ids('The cat sat'), { ...FIXED, maxNewTokens: 30, signal: controller.signal, onToken: (t) => { if (t.index === 3) controller.abort(); } });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(memory().numTensors).toBe(before);
    const aborted = new AbortController();
    aborted.abort();
    await expect(qwen2.generate(ids('The cat sat'), { ...FIXED, signal: aborted.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects with UseAfterDisposeError when the model is disposed during generation, leaving no tensor', async () => {
    const before = memory().numTensors;
    const model = await loadCausalLM(folder('qwen3-untied'));
    const run = model.generate([5, 6, 7], { ...FIXED, maxNewTokens: 30, onToken: (t) => { if (t.index === 2) model.dispose(); } });
    const error = await run.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(UseAfterDisposeError);
    expect((error as Error).message).toBe('Qwen3ForCausalLM.generate: called after dispose() freed its weights. Create a new instance instead.');
    expect(memory().numTensors).toBe(before);
  });
});

describe('generate refuses bad options with typed errors, before anything is allocated', () => {
  const cases: Array<[string, () => Promise<unknown>, string | RegExp]> = [
    ['maxNewTokens 0', () => qwen2.generate([1, 2], { maxNewTokens: 0 }), "Qwen2ForCausalLM.generate: 'maxNewTokens' must be an integer ≥ 1; received number 0."],
    ['maxNewTokens past maxLength', () => qwen2.generate([1, 2], { maxNewTokens: 1e9 }), "Qwen2ForCausalLM.generate: 'maxNewTokens' must be at most maxLength − prompt = 64 − 2 = 62; received number 1000000000. Lower maxNewTokens, or raise maxLength (the KV cache grows with it)."],
    ['a prompt past maxLength', () => qwen2.generate(new Array<number>(80).fill(5)), "Qwen2ForCausalLM.generate: 'inputIds' must be a prompt shorter than maxLength = 64 (room for at least one new token); received 80 tokens. Shorten the prompt, or raise maxLength (the KV cache grows with it)."],
    ['a GPT-2 maxLength past its positions', () => gpt2.generate([1, 2], { maxLength: 100 }), "GPT2LMHeadModel.generate: 'maxLength' must be an integer from 1 to 64; received number 100."],
    ['temperature 0', () => qwen2.generate([1, 2], { doSample: true, temperature: 0 }), "Qwen2ForCausalLM.generate: 'temperature' must be a finite number > 0; received number 0."],
    ['topP 1.5', () => qwen2.generate([1, 2], { doSample: true, topP: 1.5 }), "Qwen2ForCausalLM.generate: 'topP' must be a number in (0, 1] (1: off); received number 1.5."],
    ['topK -1', () => qwen2.generate([1, 2], { doSample: true, topK: -1 }), "Qwen2ForCausalLM.generate: 'topK' must be an integer ≥ 0; received number -1."],
    ['minP NaN', () => qwen2.generate([1, 2], { doSample: true, minP: NaN }), "Qwen2ForCausalLM.generate: 'minP' must be a number in [0, 1] (0: off); received number NaN."],
    ['repetitionPenalty 0', () => qwen2.generate([1, 2], { repetitionPenalty: 0 }), "Qwen2ForCausalLM.generate: 'repetitionPenalty' must be a finite number > 0 (1: off); received number 0."],
    ['a sampling option with greedy decoding', () => qwen2.generate([1, 2], { temperature: 0.7 }), "Qwen2ForCausalLM.generate: 'temperature' must be used with doSample: true (a sampling option); received number 0.7. Decoding is greedy (generation_config.json's do_sample is not true): pass doSample: true, or leave temperature out."],
    ['a text without a tokenizer', () => qwen2.generate('Hello'), "Qwen2ForCausalLM.generate: 'input' must be token ids, or texts with options.tokenizer; received a text and no tokenizer. Pass tokenizer: await loadTokenizer(folder) (@attnkit/tokenizers)."],
    ['stop strings without a tokenizer', () => qwen2.generate([1, 2], { stop: 'x' }), /^Qwen2ForCausalLM\.generate: 'stop' must be given with a tokenizer/],
    ['right padding', () => qwen2.generate({ inputIds: [[1, 2, 0]], attentionMask: [[1, 1, 0]] }), /^Qwen2ForCausalLM\.generate: 'attentionMask\[0\]' must be left padding \(zeros, then ones\)/],
    ['an id outside the vocabulary', () => qwen2.generate([[1, 2], [3, 320]]), "Qwen2ForCausalLM.generate: 'input[1][1]' must be a token id in [0, vocab_size = 320); received number 320."],
    ['an empty prompt', () => qwen2.generate([[1, 2], []]), "Qwen2ForCausalLM.generate: 'input[1]' must be a prompt of at least one token; received no token."],
    ['a misspelled option', () => qwen2.generate([1, 2], { maxTokens: 3 } as never), /^Qwen2ForCausalLM\.generate: 'options' must be an object with only the keys .*; received the unknown key 'maxTokens'\. Did you mean 'maxNewTokens'\?$/],
    ['an eos id outside the vocabulary', () => qwen2.generate([1, 2], { eosTokenId: 999 }), "Qwen2ForCausalLM.generate: 'eosTokenId' must be an integer from 0 to 319; received number 999."],
  ];
  it.each(cases)('%s', async (_, run, message) => {
    const before = memory().numTensors;
    const error = await run().then(() => undefined, (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    if (typeof message === 'string') expect(error!.message).toBe(message);
    else expect(error!.message).toMatch(message);
    expect(memory().numTensors).toBe(before);
  });

  it('stream without a tokenizer throws at once', () => {
    expect(() => qwen2.stream([1, 2], {})).toThrow(InvalidArgumentError);
  });
});
