import { causalLMStoredTensors, DecoderForCausalLM, type CausalLM } from '@attnkit/models';
import { modelFiles, writeSafetensors, type ModelFiles, type ModelSource } from '@attnkit/hub';
import { InvalidArgumentError, describeValue } from '@attnkit/errors';
import { checkFloatModel } from '../trainer/check-float-model.js';
import { CheckpointError } from './checkpoint-error.js';
import { tokenizerFiles } from './sentence-folder-files.js';

const json = (value: unknown): Uint8Array => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);

/**
 * Every file of a Hugging Face causal-LM folder holding `model`, by name — what `save_pretrained`
 * writes, which `AutoModelForCausalLM.from_pretrained` and attnkit's `loadCausalLM` read back to the
 * same model: `config.json` (the source's, with `dtype: "float32"`), `generation_config.json` when the
 * source has one, `model.safetensors` (float32, the stored layout of `causalLMStoredTensors`: GPT-2's
 * `Conv1D` weights `[in, out]`, no `lm_head.weight` when the head is tied) and the tokenizer files
 * (with `chat_template.jinja`) copied from `source`, the folder the model was loaded from. A source
 * whose config is another `model_type` is a `CheckpointError`.
 *
 * @example
 * const files = await causalLMFolderFiles(model, './SmolLM2-135M'); // Map { 'config.json' => bytes, ... }
 */
export async function causalLMFolderFiles(model: CausalLM, source: ModelSource | ModelFiles, caller = 'saveCausalLMFolder'): Promise<Map<string, Uint8Array>> {
  if (!(model instanceof DecoderForCausalLM)) throw new InvalidArgumentError({ caller, argument: 'model', expected: 'a causal language model (loadCausalLM)', received: describeValue(model) });
  checkFloatModel([model], caller, 'save');
  const read = modelFiles(source, { caller });
  const configBytes = await read.read('config.json');
  if (configBytes === undefined) throw new CheckpointError(caller, read.where, `the source ${read.where} has no config.json to copy; pass the folder the model was loaded from.`);
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(new TextDecoder().decode(configBytes)) as Record<string, unknown>;
  } catch (error) {
    throw new CheckpointError(caller, read.where, `config.json in ${read.where} is not valid JSON (${(error as Error).message}).`, error);
  }
  if (config?.['model_type'] !== model.config.modelType) throw new CheckpointError(caller, read.where, `config.json in ${read.where} is for model_type ${JSON.stringify(config?.['model_type'])}, the model is ${JSON.stringify(model.config.modelType)}; pass the folder the model was loaded from.`);
  const { torch_dtype: _old, ...rest } = config;
  const files = new Map<string, Uint8Array>();
  files.set('config.json', json({ ...rest, dtype: 'float32' }));
  const generation = await read.read('generation_config.json');
  if (generation !== undefined) files.set('generation_config.json', generation);
  files.set('model.safetensors', writeSafetensors(Object.fromEntries(await causalLMStoredTensors(model)) as Record<string, { shape: number[]; values: Float32Array }>, { format: 'pt' }));
  for (const [name, bytes] of await tokenizerFiles(read, caller)) files.set(name, bytes);
  return files;
}
