import { checkOptionKeys } from '@attnkit/errors';
import { ModelFiles, ModelLoadError, modelFiles, type LoadProgress, type ModelSource } from '@attnkit/hub';
import { parseDenseConfig, type DenseConfig } from './modules/dense.js';
import { parsePoolingConfig, type PoolingConfig } from './modules/pooling.js';
import { SIMILARITY_FUNCTIONS, type SimilarityFunction } from './similarity.js';

/** A module after pooling, in the folder's order. */
export type SentenceModule = { readonly type: 'Dense'; readonly path: string; readonly config: DenseConfig } | { readonly type: 'Normalize'; readonly path: string };

/** What a sentence-transformers folder says about embedding text, read from its JSON files. */
export interface SentenceFolder {
  /** False for a sentence-transformers folder; true for a plain Hugging Face folder read with the defaults (mean pooling). */
  readonly plain: boolean;
  /** Folder of the Transformer module (`''`: the root). */
  readonly transformerPath: string;
  /** `max_seq_length` of `sentence_bert_config.json`; undefined: the tokenizer's `model_max_length`, at most the model's positions. */
  readonly maxSeqLength: number | undefined;
  /** `do_lower_case` of `sentence_bert_config.json`. */
  readonly doLowerCase: boolean;
  readonly pooling: PoolingConfig | undefined;
  /** Dense and Normalize modules after pooling, in order. */
  readonly modules: readonly SentenceModule[];
  /** `prompts` of `config_sentence_transformers.json` (name → text prepended). */
  readonly prompts: ReadonlyMap<string, string>;
  readonly defaultPromptName: string | undefined;
  readonly similarityFnName: SimilarityFunction;
  /** The folder's `truncate_dim`, if it sets one. */
  readonly truncateDim: number | undefined;
}

const CALLER = 'loadSentenceEncoder';

/** Options of {@link readSentenceFolder}. */
export interface ReadSentenceFolderOptions {
  readonly signal?: AbortSignal | undefined;
  /** Fetches URL sources instead of the global `fetch` (same signature), e.g. `cachedFetch()`. */
  readonly fetch?: typeof fetch | undefined;
  /** Told how far each file has been read. */
  readonly onProgress?: ((progress: LoadProgress) => void) | undefined;
}
const KNOWN = ['Transformer', 'Pooling', 'Dense', 'Normalize'];

/** A JSON object file of the folder, `undefined` if absent; a typed error if malformed. */
async function readJson(files: ModelFiles, name: string): Promise<Map<string, unknown> | undefined> {
  const value = await files.json(name);
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || (Array.isArray(value) && name !== 'modules.json')) throw new ModelLoadError(name, `${name} in ${files.where} must be a JSON ${name === 'modules.json' ? 'list' : 'object'}.`, undefined, files.caller);
  return Array.isArray(value) ? new Map([['modules', value]]) : new Map(Object.entries(value)); // Maps: "__proto__" stays a plain key
}

/**
 * Reads how a folder embeds text: `modules.json` (a Transformer, a Pooling, then Dense and
 * Normalize modules in order), each module's `config.json`, `sentence_bert_config.json`
 * (`max_seq_length`, `do_lower_case`) and `config_sentence_transformers.json` (`prompts`,
 * `default_prompt_name`, `similarity_fn_name`). A folder without `modules.json` is a plain
 * Hugging Face folder (its `config.json` at the top): mean pooling over the Transformer, as
 * sentence-transformers does; a folder with neither file is a `ModelLoadError`.
 * Modules attnkit does not have (Router, StaticEmbedding, CNN, ...) are a typed error naming them.
 *
 * @example
 * const folder = await readSentenceFolder('./all-MiniLM-L6-v2'); // pooling mean, then Normalize
 */
export async function readSentenceFolder(source: ModelSource | ModelFiles, options: ReadSentenceFolderOptions = {}): Promise<SentenceFolder> {
  checkOptionKeys(options, ['signal', 'fetch', 'onProgress'], CALLER);
  const files = modelFiles(source, { caller: CALLER, signal: options.signal, fetch: options.fetch, onProgress: options.onProgress });
  const where = files.where;
  const fail = (file: string, message: string): never => {
    throw new ModelLoadError(file, `${file} in ${where} ${message}`, undefined, CALLER);
  };
  const list = (await readJson(files, 'modules.json'))?.get('modules') as unknown[] | undefined;
  const st = (await readJson(files, 'config_sentence_transformers.json')) ?? new Map<string, unknown>();
  let transformerPath = '';
  let pooling: PoolingConfig | undefined;
  const modules: SentenceModule[] = [];
  if (list !== undefined) {
    if (list.length === 0) fail('modules.json', 'lists no module; a sentence-transformers folder starts with a Transformer.');
    for (const [i, entry] of list.entries()) {
      const raw = typeof entry === 'object' && entry !== null ? new Map(Object.entries(entry)) : undefined;
      const type = raw?.get('type');
      const path = raw?.get('path') ?? '';
      if (typeof type !== 'string' || typeof path !== 'string') fail('modules.json', `entry ${i} must have a "type" and a "path" string; received ${JSON.stringify(entry)?.slice(0, 80)}.`);
      const name = (type as string).slice((type as string).lastIndexOf('.') + 1);
      const inside = files.subfolder(path as string); // checks the path stays inside the folder
      const where = i === 0 ? 'first' : 'after the Transformer';
      if (!KNOWN.includes(name)) fail('modules.json', `has module ${i} of type ${JSON.stringify(type)}; attnkit reads ${KNOWN.join(', ')}.`);
      if ((i === 0) !== (name === 'Transformer')) fail('modules.json', `has ${name} ${where}; attnkit reads a Transformer first, then Pooling, Dense and Normalize.`);
      if (name === 'Pooling') {
        if (pooling !== undefined || modules.length > 0) fail('modules.json', `has a Pooling module at ${i}; attnkit reads one Pooling right after the Transformer.`);
        const config = await readJson(inside, 'config.json');
        if (config === undefined) fail(`${path}/config.json`, 'is missing (the Pooling module\'s config).');
        try {
          pooling = parsePoolingConfig(Object.fromEntries(config as Map<string, unknown>), CALLER);
        } catch (error) {
          fail(`${path}/config.json`, `is not a Pooling config: ${(error as Error).message}`);
        }
      } else if (name === 'Dense') {
        const config = await readJson(inside, 'config.json');
        if (config === undefined) fail(`${path}/config.json`, 'is missing (the Dense module\'s config).');
        try {
          modules.push({ type: 'Dense', path: path as string, config: parseDenseConfig(Object.fromEntries(config as Map<string, unknown>), CALLER) });
        } catch (error) {
          fail(`${path}/config.json`, `is not a Dense config: ${(error as Error).message}`);
        }
      } else if (name === 'Normalize') {
        modules.push({ type: 'Normalize', path: path as string });
      } else {
        transformerPath = path as string;
      }
    }
    if (pooling === undefined && modules.length > 0) fail('modules.json', 'has Dense or Normalize modules without a Pooling module before them.');
  } else if ((await files.read('config.json', { required: true })) === undefined) { // neither kind of folder: a wrong path is refused here, not read as a plain folder
    throw new ModelLoadError('config.json', `config.json is missing in ${where}; a Hugging Face model folder has config.json and model.safetensors, a sentence-transformers folder also modules.json.`, undefined, CALLER);
  }
  const bert = (await readJson(files.subfolder(transformerPath), 'sentence_bert_config.json')) ?? new Map<string, unknown>();
  const maxSeqLength = bert.get('max_seq_length');
  if (maxSeqLength !== undefined && maxSeqLength !== null && (typeof maxSeqLength !== 'number' || !Number.isInteger(maxSeqLength) || maxSeqLength < 1)) fail('sentence_bert_config.json', `has max_seq_length ${JSON.stringify(maxSeqLength)}; expected a positive integer.`);
  const doLowerCase = bert.get('do_lower_case') ?? false;
  if (typeof doLowerCase !== 'boolean') fail('sentence_bert_config.json', `has do_lower_case ${JSON.stringify(doLowerCase)}; expected true or false.`);

  const promptsJson = st.get('prompts') ?? {};
  if (typeof promptsJson !== 'object' || promptsJson === null || Array.isArray(promptsJson)) fail('config_sentence_transformers.json', 'has "prompts" that is not an object of name → text.');
  const prompts = new Map(Object.entries(promptsJson as object));
  for (const [name, text] of prompts) if (typeof text !== 'string') fail('config_sentence_transformers.json', `has prompt ${JSON.stringify(name)} that is not a string.`);
  const defaultPromptName = st.get('default_prompt_name') ?? undefined;
  if (defaultPromptName !== undefined && defaultPromptName !== null && (typeof defaultPromptName !== 'string' || !prompts.has(defaultPromptName))) fail('config_sentence_transformers.json', `has default_prompt_name ${JSON.stringify(defaultPromptName)}, which is not one of its prompts (${[...prompts.keys()].join(', ') || 'none'}).`);
  const similarityFnName = st.get('similarity_fn_name') ?? 'cosine';
  if (similarityFnName !== null && !(SIMILARITY_FUNCTIONS as readonly unknown[]).includes(similarityFnName)) fail('config_sentence_transformers.json', `has similarity_fn_name ${JSON.stringify(similarityFnName)}; attnkit has ${SIMILARITY_FUNCTIONS.join(', ')}.`);
  const truncateDim = st.get('truncate_dim') ?? undefined;
  if (truncateDim !== undefined && truncateDim !== null && (typeof truncateDim !== 'number' || !Number.isInteger(truncateDim) || truncateDim < 1)) fail('config_sentence_transformers.json', `has truncate_dim ${JSON.stringify(truncateDim)}; expected a positive integer.`);
  return {
    plain: list === undefined,
    transformerPath,
    maxSeqLength: (maxSeqLength ?? undefined) as number | undefined,
    doLowerCase: doLowerCase as boolean,
    pooling,
    modules,
    prompts: prompts as Map<string, string>,
    defaultPromptName: (defaultPromptName ?? undefined) as string | undefined,
    similarityFnName: (similarityFnName ?? 'cosine') as SimilarityFunction,
    truncateDim: (truncateDim ?? undefined) as number | undefined,
  };
}
