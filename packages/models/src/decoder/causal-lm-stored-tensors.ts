import { InvalidArgumentError, describeValue } from '@attnkit/errors';
import { Int8Linear, type TensorData } from '@attnkit/nn';
import { transposeMatrix } from '../load/transpose-matrix.js';
import { DECODER_FAMILIES } from './decoder-families.js';
import { DecoderForCausalLM, type CausalLM } from './decoder-for-causal-lm.js';

/** The family's transposed-weight pattern of a float causal LM (an `InvalidArgumentError` for anything else). */
function storedLayout(model: CausalLM, caller: string): RegExp | undefined {
  if (!(model instanceof DecoderForCausalLM)) throw new InvalidArgumentError({ caller, argument: 'model', expected: 'a causal language model (loadCausalLM)', received: describeValue(model) });
  const quantized = model.namedModules().filter(([, m]) => m instanceof Int8Linear).map(([path]) => path);
  if (quantized.length > 0) throw new InvalidArgumentError({ caller, argument: 'model', expected: 'a float causal LM (int8 weights are not parameters)', received: `an int8 model (${quantized.length} Int8Linear layers: ${quantized.slice(0, 2).join(', ')}${quantized.length > 2 ? ', ...' : ''})`, hint: "Load it without quantize: 'int8'." });
  return DECODER_FAMILIES[model.config.modelType].checkpointKeys.transposed;
}

/**
 * A causal LM's weights as transformers' `save_pretrained` stores them in `model.safetensors`, by
 * stored name: every parameter under its key (`model.layers.0.self_attn.q_proj.weight`,
 * `transformer.h.0.attn.c_attn.weight`, `lm_head.weight` unless the head is tied), float32, with
 * GPT-2's `Conv1D` weights back in their stored `[in, out]` layout. `loadCausalLM` and
 * `AutoModelForCausalLM.from_pretrained` read the file back to the same model. An int8 model is an
 * `InvalidArgumentError`.
 *
 * @example
 * const tensors = await causalLMStoredTensors(model); // Map { 'transformer.wte.weight' => { shape: [V, E], values }, ... }
 */
export async function causalLMStoredTensors(model: CausalLM): Promise<Map<string, TensorData>> {
  const transposed = storedLayout(model, 'causalLMStoredTensors');
  const stored = new Map<string, TensorData>();
  for (const [key, parameter] of model.namedParameters()) {
    const data: TensorData = { shape: [...parameter.shape], values: (await parameter.data()) as Float32Array };
    stored.set(key, transposed?.test(key) === true && data.shape.length === 2 ? transposeMatrix(data) : data);
  }
  return stored;
}

/**
 * The inverse of {@link causalLMStoredTensors}: tensors by stored name (a `model.safetensors` that
 * `save_pretrained` or attnkit wrote from this kind of causal LM) as the values `model.loadStateDict`
 * takes — the same names, GPT-2's `Conv1D` weights transposed to `Linear`'s `[out, in]`. Names are not
 * checked here; `loadStateDict` refuses missing, unexpected or mis-shaped ones.
 *
 * @example
 * model.loadStateDict(causalLMStateFromStored(model, readSafetensors(bytes).tensors));
 */
export function causalLMStateFromStored(model: CausalLM, stored: ReadonlyMap<string, TensorData>): Map<string, TensorData> {
  const caller = 'causalLMStateFromStored';
  const transposed = storedLayout(model, caller);
  if (!(stored instanceof Map)) throw new InvalidArgumentError({ caller, argument: 'stored', expected: 'a Map of stored name to { shape, values } (readSafetensors(bytes).tensors)', received: describeValue(stored) });
  const state = new Map<string, TensorData>();
  for (const [name, data] of stored) state.set(name, transposed?.test(name) === true && data.shape.length === 2 ? transposeMatrix(data) : data);
  return state;
}
