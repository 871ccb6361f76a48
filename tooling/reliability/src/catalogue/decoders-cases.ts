import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KvCache } from '@attnkit/attention';
import { loadCausalLM, parseDecoderConfig, type CausalLM, type GenerateInput, type GenerateOptions } from '@attnkit/models';
import { rejects, type CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';

const E = 'InvalidArgumentError';
const L = 'ModelLoadError';
const folder = repoPath('tooling/reference/fixtures/decoders/qwen2/'); // vocab 320, 64 positions, 2 layers
const gpt2 = repoPath('tooling/reference/fixtures/decoders/gpt2/');
const config = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8')) as Record<string, unknown>;
async function withModel<T>(use: (model: CausalLM) => T | Promise<T>, at = folder): Promise<T> {
  const model = await loadCausalLM(at);
  try { return await use(model); } finally { if (!model.isDisposed) model.dispose(); }
}
const generate = (input: GenerateInput, options: GenerateOptions) => withModel((m) => m.generate(input, options).then((r) => r.tokens));
const G = 'Qwen2ForCausalLM.generate';

/** Causal language models: configs, caches, and generate's options, prompts and lifecycle. */
export const decodersCases: CatalogueCase[] = [
  rejects('decoders', 'an encoder folder given to loadCausalLM', L, /^loadCausalLM: config\.json in .* is not a supported decoder config: parseDecoderConfig: 'model_type' must be one of "gpt2", "llama", "mistral", "qwen2", "qwen3"; received "bert"\./, () => loadCausalLM(repoPath('tooling/reference/fixtures/families/bert/'))),
  rejects('decoders', 'an unknown rope_type in config.json', E, "parseDecoderConfig: 'rope_parameters.rope_type' must be one of 'default', 'linear', 'dynamic', 'llama3', 'yarn' (the rope_types attnkit implements); received string 'su'.", () => parseDecoderConfig({ ...config, rope_parameters: { rope_type: 'su', rope_theta: 10000 } })),
  rejects('decoders', 'a config.json of 3.5 · 10¹³ parameters', 'ResourceLimitError', /^parseDecoderConfig: the 3\.52e\+13 float32 parameters this config describes/, () => parseDecoderConfig({ ...config, vocab_size: 2 ** 30, hidden_size: 4096 * 4, num_attention_heads: 128 })),
  rejects('decoders', 'a KV cache of another model', E, "Qwen2ForCausalLM.forward: 'pastKeyValues' must be a KvCache of num_hidden_layers = 2 layers (model.createCache()); received a KvCache of 5 layers.", () => withModel((m) => {
    const cache = new KvCache({ numLayers: 5, maxLength: 8 });
    try { return m.forward({ inputIds: [[1, 2]], pastKeyValues: cache }).logits.shape; } finally { cache.dispose(); }
  })),
  rejects('decoders', 'a forward past the KV cache\'s maxLength', E, /^KvCache\.step: 'tokenMask' must be at most maxLength − length = 4 − 0 = 4 new positions; received 6 \(\[1, 6\]\)\./, () => withModel((m) => {
    const cache = m.createCache({ maxLength: 4 });
    try { return m.forward({ inputIds: [[1, 2, 3, 4, 5, 6]], pastKeyValues: cache }).logits.shape; } finally { cache.dispose(); }
  })),
  rejects('decoders', 'GPT-2 positions past n_positions', E, "GPT2LMHeadModel.forward: 'inputIds' must be positions below n_positions = 64 (the learned position table); received position 64. Shorten the prompt, or generate fewer tokens: GPT-2 has no position past its table.", () => withModel((m) => m.forward({ inputIds: [new Array<number>(65).fill(3)] }).logits.shape, gpt2)),
  rejects('decoders', 'generate maxNewTokens 0', E, `${G}: 'maxNewTokens' must be an integer ≥ 1; received number 0.`, () => generate([1, 2], { maxNewTokens: 0 })),
  rejects('decoders', 'generate maxNewTokens 10¹²', E, `${G}: 'maxNewTokens' must be at most maxLength − prompt = 64 − 2 = 62; received number 1000000000000. Lower maxNewTokens, or raise maxLength (the KV cache grows with it).`, () => generate([1, 2], { maxNewTokens: 1e12 })),
  rejects('decoders', 'generate maxNewTokens 1.5', E, `${G}: 'maxNewTokens' must be an integer ≥ 1; received number 1.5.`, () => generate([1, 2], { maxNewTokens: 1.5 })),
  rejects('decoders', 'generate a prompt past maxLength', E, `${G}: 'inputIds' must be a prompt shorter than maxLength = 64 (room for at least one new token); received 100 tokens. Shorten the prompt, or raise maxLength (the KV cache grows with it).`, () => generate(new Array<number>(100).fill(3), {})),
  rejects('decoders', 'generate maxLength 2³⁰ (past the cache\'s 2²⁴)', E, `${G}: 'maxLength' must be an integer from 1 to 16777216; received number 1073741824.`, () => generate([1, 2], { maxLength: 2 ** 30 })),
  rejects('decoders', 'generate temperature 0', E, `${G}: 'temperature' must be a finite number > 0; received number 0.`, () => generate([1, 2], { doSample: true, temperature: 0 })),
  rejects('decoders', 'generate temperature Infinity', E, `${G}: 'temperature' must be a finite number > 0; received number Infinity.`, () => generate([1, 2], { doSample: true, temperature: Infinity })),
  rejects('decoders', 'generate topP 0', E, `${G}: 'topP' must be a number in (0, 1] (1: off); received number 0.`, () => generate([1, 2], { doSample: true, topP: 0 })),
  rejects('decoders', 'generate topP 1.5', E, `${G}: 'topP' must be a number in (0, 1] (1: off); received number 1.5.`, () => generate([1, 2], { doSample: true, topP: 1.5 })),
  rejects('decoders', 'generate topK -1', E, `${G}: 'topK' must be an integer ≥ 0; received number -1.`, () => generate([1, 2], { doSample: true, topK: -1 })),
  rejects('decoders', 'generate minP 2', E, `${G}: 'minP' must be a number in [0, 1] (0: off); received number 2.`, () => generate([1, 2], { doSample: true, minP: 2 })),
  rejects('decoders', 'generate repetitionPenalty -1', E, `${G}: 'repetitionPenalty' must be a finite number > 0 (1: off); received number -1.`, () => generate([1, 2], { repetitionPenalty: -1 })),
  rejects('decoders', 'generate seed -1', E, `${G}: 'seed' must be an integer from 0 to 9007199254740991; received number -1.`, () => generate([1, 2], { doSample: true, seed: -1 })),
  rejects('decoders', 'a sampling option with greedy decoding', E, /^Qwen2ForCausalLM\.generate: 'topK' must be used with doSample: true \(a sampling option\); received number 5\./, () => generate([1, 2], { topK: 5 })),
  rejects('decoders', 'a right-padded prompt batch', E, /^Qwen2ForCausalLM\.generate: 'attentionMask\[1\]' must be left padding \(zeros, then ones\)/, () => generate({ inputIds: [[1, 2], [3, 0]], attentionMask: [[1, 1], [1, 0]] }, {})),
  rejects('decoders', 'a prompt id outside the vocabulary', E, `${G}: 'input[0][1]' must be a token id in [0, vocab_size = 320); received number 320.`, () => generate([1, 320], {})),
  rejects('decoders', 'texts without a tokenizer', E, /^Qwen2ForCausalLM\.generate: 'input' must be token ids, or texts with options\.tokenizer; received 2 texts and no tokenizer\./, () => generate(['a', 'b'], {})),
  rejects('decoders', 'stream without a tokenizer', E, /^Qwen2ForCausalLM\.stream: 'options\.tokenizer' must be a tokenizer/, () => withModel((m) => m.stream([1, 2], {}))),
  rejects('decoders', 'dispose during generation', 'UseAfterDisposeError', 'Qwen2ForCausalLM.generate: called after dispose() freed its weights. Create a new instance instead.', () => withModel((m) => m.generate([1, 2, 3], { maxNewTokens: 20, eosTokenId: null, onToken: (t) => { if (t.index === 2) m.dispose(); } }))),
  rejects('decoders', 'generate after dispose', 'UseAfterDisposeError', 'Qwen2ForCausalLM.generate: called after dispose() freed its weights. Create a new instance instead.', () => withModel((m) => { m.dispose(); return m.generate([1, 2], {}); })),
];
