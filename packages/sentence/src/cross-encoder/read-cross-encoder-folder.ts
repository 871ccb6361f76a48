import { checkModelFiles, ModelLoadError, type ModelFiles } from '@attnkit/hub';
import { activationOfTorchPath, type CrossEncoderActivation } from './cross-encoder-activation.js';

/** What a CrossEncoder folder says about scoring pairs, read from its JSON files. */
export interface CrossEncoderFolder {
  /** True for a plain Hugging Face classification folder (no `modules.json`). */
  readonly plain: boolean;
  /** Folder of the Transformer module (`''`: the root). */
  readonly transformerPath: string;
  /** `max_seq_length` of `sentence_bert_config.json`; undefined: the tokenizer's `model_max_length`, at most the model's positions. */
  readonly maxSeqLength: number | undefined;
  /** `do_lower_case` of `sentence_bert_config.json`. */
  readonly doLowerCase: boolean;
  /**
   * The activation the folder names — `config_sentence_transformers.json`'s `activation_fn`
   * (sentence-transformers 6), else `config.json`'s `sentence_transformers.activation_fn`
   * (4 and 5) or `sbert_ce_default_activation_function` (older) — or undefined: sigmoid for one
   * label, identity otherwise, as sentence-transformers decides.
   */
  readonly activation: CrossEncoderActivation | undefined;
  /** A path that is not PyTorch's (a custom function): sentence-transformers ignores it without `trust_remote_code`, and so does attnkit. */
  readonly ignoredActivation: string | undefined;
  /** `prompts` of `config_sentence_transformers.json` (name → text prepended to the first text of each pair). */
  readonly prompts: ReadonlyMap<string, string>;
  readonly defaultPromptName: string | undefined;
}

/** A JSON object file of the folder as a Map of its keys (`__proto__` stays a plain key), `undefined` if absent. */
async function readJson(files: ModelFiles, name: string): Promise<Map<string, unknown> | undefined> {
  const value = await files.json(name);
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || (Array.isArray(value) && name !== 'modules.json')) throw new ModelLoadError(name, `${name} in ${files.where} must be a JSON ${name === 'modules.json' ? 'list' : 'object'}.`, undefined, files.caller);
  return Array.isArray(value) ? new Map([['modules', value]]) : new Map(Object.entries(value));
}

/**
 * Reads how a CrossEncoder folder scores pairs, as sentence-transformers 6.0.1's `CrossEncoder(path)`
 * does: `modules.json` (one Transformer module for `sequence-classification`; a folder without it
 * is a plain classification folder), `sentence_bert_config.json` (`max_seq_length`,
 * `do_lower_case`), the activation (see {@link CrossEncoderFolder.activation}) and the prompts of
 * `config_sentence_transformers.json`. Anything else a CrossEncoder folder can hold (a causal
 * language model scored by its logits, Dense or Router modules) is a `ModelLoadError` naming it.
 *
 * @example
 * const folder = await readCrossEncoderFolder(modelFiles('./ms-marco-MiniLM-L6-v2', { caller: 'loadCrossEncoder' }));
 * folder.activation; // 'sigmoid'
 */
export async function readCrossEncoderFolder(files: ModelFiles): Promise<CrossEncoderFolder> {
  const where = checkModelFiles(files, 'readCrossEncoderFolder').where;
  const fail = (file: string, message: string): never => {
    throw new ModelLoadError(file, `${file} in ${where} ${message}`, undefined, files.caller);
  };
  const list = (await readJson(files, 'modules.json'))?.get('modules') as unknown[] | undefined;
  let transformerPath = '';
  if (list !== undefined) {
    const types = list.map((entry) => (typeof entry === 'object' && entry !== null ? (entry as { type?: unknown }).type : undefined));
    const names = types.map((type) => (typeof type === 'string' ? type.slice(type.lastIndexOf('.') + 1) : JSON.stringify(type)));
    if (list.length !== 1 || names[0] !== 'Transformer') fail('modules.json', `lists ${names.join(', ') || 'no module'}; a CrossEncoder folder attnkit reads has one Transformer module (sequence classification).`);
    const path = (list[0] as { path?: unknown }).path ?? '';
    if (typeof path !== 'string') fail('modules.json', `has a Transformer path ${JSON.stringify(path)}; expected a string.`);
    transformerPath = path as string;
    files.subfolder(transformerPath); // checks the path stays inside the folder
  }
  const inside = files.subfolder(transformerPath);
  const bert = (await readJson(inside, 'sentence_bert_config.json')) ?? new Map<string, unknown>();
  const task = bert.get('transformer_task') ?? 'sequence-classification';
  if (task !== 'sequence-classification') fail('sentence_bert_config.json', `has transformer_task ${JSON.stringify(task)}; attnkit's CrossEncoder scores pairs with a sequence-classification model.`);
  const maxSeqLength = bert.get('max_seq_length') ?? undefined;
  if (maxSeqLength !== undefined && maxSeqLength !== null && (typeof maxSeqLength !== 'number' || !Number.isInteger(maxSeqLength) || maxSeqLength < 1)) fail('sentence_bert_config.json', `has max_seq_length ${JSON.stringify(maxSeqLength)}; expected a positive integer.`);
  const doLowerCase = bert.get('do_lower_case') ?? false;
  if (typeof doLowerCase !== 'boolean') fail('sentence_bert_config.json', `has do_lower_case ${JSON.stringify(doLowerCase)}; expected true or false.`);

  const st = (await readJson(files, 'config_sentence_transformers.json')) ?? new Map<string, unknown>();
  const config = (await readJson(inside, 'config.json')) ?? new Map<string, unknown>();
  const legacy = config.get('sentence_transformers');
  const named = [
    ['config_sentence_transformers.json', st.get('activation_fn')],
    ['config.json', typeof legacy === 'object' && legacy !== null ? (legacy as { activation_fn?: unknown }).activation_fn : undefined],
    ['config.json', config.get('sbert_ce_default_activation_function')],
  ] as const;
  const [file, path] = named.find(([, value]) => value !== undefined && value !== null) ?? ['', undefined];
  if (path !== undefined && typeof path !== 'string') fail(file, `names the activation ${JSON.stringify(path)}; expected a dotted path such as "torch.nn.modules.activation.Sigmoid".`);
  const torch = typeof path === 'string' && path.startsWith('torch.');
  const activation = torch ? activationOfTorchPath(path) : undefined;
  if (torch && activation === undefined) fail(file, `names the activation ${JSON.stringify(path)}; attnkit's CrossEncoder has torch.nn's Identity, Sigmoid, Tanh, ReLU and Softmax.`);

  const promptsJson = st.get('prompts') ?? {};
  if (typeof promptsJson !== 'object' || promptsJson === null || Array.isArray(promptsJson)) fail('config_sentence_transformers.json', 'has "prompts" that is not an object of name → text.');
  const prompts = new Map(Object.entries(promptsJson as object));
  for (const [name, text] of prompts) if (typeof text !== 'string') fail('config_sentence_transformers.json', `has prompt ${JSON.stringify(name)} that is not a string.`);
  const defaultPromptName = st.get('default_prompt_name') ?? undefined;
  if (defaultPromptName !== undefined && defaultPromptName !== null && (typeof defaultPromptName !== 'string' || !prompts.has(defaultPromptName))) fail('config_sentence_transformers.json', `has default_prompt_name ${JSON.stringify(defaultPromptName)}, which is not one of its prompts (${[...prompts.keys()].join(', ') || 'none'}).`);
  return {
    plain: list === undefined,
    transformerPath,
    maxSeqLength: (maxSeqLength ?? undefined) as number | undefined,
    doLowerCase: doLowerCase as boolean,
    activation,
    ignoredActivation: typeof path === 'string' && !torch ? path : undefined,
    prompts: prompts as Map<string, string>,
    defaultPromptName: (defaultPromptName ?? undefined) as string | undefined,
  };
}
