import { kernelThreadsReady } from '@attnkit/kernels';
import { ModelLoadError, type ModelFiles, type ModelSource } from '@attnkit/hub';
import type { DecoderConfig } from '../decoder/decoder-config.js';
import { DECODER_FAMILIES } from '../decoder/decoder-families.js';
import type { CausalLM } from '../decoder/decoder-for-causal-lm.js';
import type { DecoderModel } from '../decoder/decoder-model.js';
import { parseDecoderConfig } from '../decoder/parse-decoder-config.js';
import { parseGenerationConfig, type GenerationConfig } from '../generation/generation-config.js';
import { applyInt8 } from './apply-int8.js';
import { buildOnBackend } from './build-on-backend.js';
import { decoderStateDict } from './decoder-state-dict.js';
import { openModelFolder, type LoadModelOptions } from './open-model-folder.js';
import { readModelFolder } from './read-model-folder.js';

/** Options of {@link loadCausalLM} and {@link loadDecoder}: those of `loadEncoder` (`quantize: 'int8'` makes every `Linear`, `lm_head` included, an `Int8Linear`; a tied head gets an int8 copy of the token embedding). */
export type LoadCausalLMOptions = LoadModelOptions;

/** generation_config.json when the folder has one (else config.json's special tokens), a `ModelLoadError` when it is bad. */
async function readGenerationConfig(files: ModelFiles, config: DecoderConfig, onNotice: ((message: string) => void) | undefined): Promise<GenerationConfig> {
  const bytes = await files.read('generation_config.json');
  if (bytes === undefined) return parseGenerationConfig(undefined, config);
  try {
    const json = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    const beams = (json as { num_beams?: unknown } | null)?.num_beams;
    if (typeof beams === 'number' && beams > 1) onNotice?.(`${files.caller}: generation_config.json in ${files.where} asks for beam search (num_beams = ${beams}); attnkit generates greedily or by sampling, one sequence per prompt.`);
    return parseGenerationConfig(json, config, 'parseGenerationConfig');
  } catch (error) {
    const detail = error instanceof SyntaxError ? `is not valid JSON (${error.message})` : `is not a supported generation config: ${(error as Error).message}`;
    throw new ModelLoadError('generation_config.json', `generation_config.json in ${files.where} ${detail}`, error, files.caller);
  }
}

/** The loading steps of a decoder folder, as a causal LM or as its headless model. */
async function loadDecoderFolder(source: ModelSource | ModelFiles, options: LoadCausalLMOptions, caller: string, headless: boolean): Promise<CausalLM | DecoderModel> {
  const { files, backend } = await openModelFolder(source, options, caller);
  const folder = await readModelFolder(files, { parseConfig: (json) => parseDecoderConfig(json), checkFinite: options.checkFinite === true, kind: 'decoder', everyFamily: caller });
  const generationConfig = headless ? undefined : await readGenerationConfig(files, folder.config, options.onNotice);
  const family = DECODER_FAMILIES[folder.config.modelType];
  const state = decoderStateDict(folder, family.checkpointKeys, { headless });
  if (state.skipped.length > 0) {
    const why = headless ? 'the head of a causal LM; the headless model does not use it' : 'tie_word_embeddings: the head is the token embedding';
    options.onNotice?.(`${caller}: skipped ${state.skipped.join(', ')} (${why}).`);
  }
  const model = await buildOnBackend(files, backend, options.signal, () => (headless ? family.model(folder.config, state.checkpoint) : family.causalLM(folder.config, state.checkpoint, generationConfig === undefined ? {} : { generationConfig })));
  applyInt8(model, { files, backend, int8Layers: state.int8Layers, quantize: options.quantize, encoderPath: '', onNotice: options.onNotice });
  if (!headless && (options.quantize === 'int8' || state.int8Layers.size > 0)) backend.run(() => (model as CausalLM).quantizeTiedHead()); // a tied head reads int8 too
  if (backend.name === 'wasm' || state.int8Layers.size > 0 || options.quantize === 'int8') await kernelThreadsReady();
  return model;
}

/**
 * Loads a Hugging Face causal language model folder — `config.json`, `model.safetensors` (or its
 * shards; F32, F16 or BF16), `generation_config.json` when there is one — from a folder, a URL, a
 * Hugging Face id, `{ files }` or a `ModelFiles`, building the class of its `model_type`: `gpt2`
 * (`GPT2LMHeadModel`), `llama` (`LlamaForCausalLM`: SmolLM, TinyLlama, Llama configs), `mistral`
 * (`MistralForCausalLM`), `qwen2` (`Qwen2ForCausalLM`), `qwen3` (`Qwen3ForCausalLM`); another
 * `model_type` is a `ModelLoadError` listing these. Checkpoints saved from the causal LM or from its
 * base model load alike; missing, unexpected or mis-shaped tensors are one `ModelLoadError` listing all
 * of them. Options as `loadEncoder`'s (`backend`, `signal`, `onProgress`, `onNotice`, `fetch`, `hub`,
 * `checkFinite`, `quantize: 'int8'`).
 *
 * @example
 * const model = await loadCausalLM('./SmolLM2-135M');
 * const tokenizer = await loadTokenizer('./SmolLM2-135M');
 * const { texts } = await model.generate('The capital of France is', { tokenizer, maxNewTokens: 8 });
 */
export async function loadCausalLM(source: ModelSource | ModelFiles, options: LoadCausalLMOptions = {}): Promise<CausalLM> {
  return (await loadDecoderFolder(source, options, 'loadCausalLM', false)) as CausalLM;
}

/**
 * Loads the headless decoder of a causal LM folder (`GPT2Model`, `LlamaModel`, `MistralModel`,
 * `Qwen2Model`, `Qwen3Model`) for its hidden states — `last_hidden_state` `[B, T, E]`, what decoder
 * embedding models pool — skipping `lm_head` with a notice. Sources and options as {@link loadCausalLM}.
 *
 * @example
 * const model = await loadDecoder('./Qwen3-Embedding-0.6B');
 * const { lastHiddenState } = model.forward(tokenizer.encode(['A sentence.'])); // [1, T, 1024]
 */
export async function loadDecoder(source: ModelSource | ModelFiles, options: LoadCausalLMOptions = {}): Promise<DecoderModel> {
  return (await loadDecoderFolder(source, options, 'loadDecoder', true)) as DecoderModel;
}
