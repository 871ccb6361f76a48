import { readFile } from 'node:fs/promises';
import { tensor2d, type Tensor } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { l2Normalize, loadSentenceEncoder } from '@attnkit/sentence';
import { encoderSentenceModel } from './encoder-sentence-model.js';
import { checkModelFolder } from './check-model-folder.js';
import { defineCommand } from './command-line/cli-command.js';
import { EXIT_CODES } from './command-line/command-help.js';
import { pathOption } from './command-line/option-kinds.js';
import { OPTIONS } from './command-line/option-table.js';
import { parseCommandLine } from './command-line/parse-command-line.js';
import { refuseArgument } from './command-line/refuse-argument.js';
import { loadIdsEncoder, type IdsEncoder } from './load-ids-encoder.js';
import { shortestFloat32Values } from './shortest-float32.js';
import { writeOutputAtomically } from './write-output.js';

/** What `attnkit encode` was asked to do. */
export interface EncodeRequest {
  readonly model: string;
  readonly backend: 'cpu' | 'wasm';
  readonly texts: readonly string[];
  readonly input: string | undefined;
  readonly output: string | undefined;
  /** A prompt of the folder's `prompts` (the folder's default prompt applies without one). */
  readonly promptName: string | undefined;
  /** Scale the sentence embeddings to unit length. */
  readonly normalize: boolean;
}

/** `attnkit encode`. */
export const ENCODE_COMMAND = defineCommand({
  name: 'encode',
  purpose: 'hidden states and sentence embeddings as JSON, on stdout or into --output',
  usage: 'attnkit encode [--model DIR|ID] [--backend cpu|wasm] (--text "..." ... | --input ids.json) [--prompt-name NAME] [--normalize] [--output out.json]',
  summary: 'Encodes texts (or token ids) and prints, or writes to --output, one JSON object: last_hidden_state, pooler_output (families with a pooler), tokens (for --text), sentence_embedding (as the model folder says; for texts, SentenceTransformer.encode\'s) and timings_ms. Relative paths are taken from the directory you run the command in.',
  options: {
    texts: { ...OPTIONS.text, help: 'a text to encode; repeat for more (or --input, not both)' },
    input: pathOption({ name: 'input', placeholder: 'ids.json', help: 'a JSON file with input_ids (and attention_mask, token_type_ids) as nested arrays; needs no tokenizer: a folder of config.json and model.safetensors will do' }),
    model: OPTIONS.model,
    backend: OPTIONS.backend,
    promptName: OPTIONS.promptName,
    normalize: OPTIONS.normalize,
    output: pathOption({ name: 'output', placeholder: 'out.json', help: 'write the JSON there (atomically: a temporary file, then renamed); a one-line summary goes to stderr', default: 'the JSON on stdout' }),
  },
  examples: [
    'attnkit encode --text "Hello world" --text "A second sentence." --output out.json',
    'attnkit encode --model ./my-st-model --text "Wie spät ist es?" --prompt-name query --normalize',
    'attnkit encode --model ./my-bert --backend cpu --input ids.json > out.json',
  ],
  notes: [EXIT_CODES],
});

/**
 * Parses `attnkit encode` arguments. Defaults: the embedded model, the wasm backend. Relative
 * `--model`, `--input` and `--output` are resolved against the directory the command was run from (`callerPath`).
 *
 * @example
 * parseEncodeArgs(['--text', 'hello', '--output', 'out.json']);
 */
export function parseEncodeArgs(argv: readonly string[]): EncodeRequest {
  const { values, refuse } = parseCommandLine(ENCODE_COMMAND, argv);
  if ((values.texts.length === 0) === (values.input === undefined)) refuse('--text / --input', 'one or more --text, or one --input ids.json (not both)', values.texts.length === 0 ? 'neither' : 'both');
  if (values.promptName !== undefined && values.input !== undefined) refuse('--prompt-name', 'texts (--text): ids from --input are embedded as they are', '--input');
  return values;
}

async function readIds(path: string): Promise<{ input_ids: number[][]; attention_mask?: number[][]; token_type_ids?: number[][] }> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    refuseArgument(ENCODE_COMMAND, '--input', 'a readable JSON file with input_ids (and attention_mask, token_type_ids) as nested arrays', `${path} (${(error as Error).message})`);
  }
  const ids = (json as { input_ids?: unknown } | null)?.input_ids;
  if (typeof json !== 'object' || !Array.isArray(ids)) refuseArgument(ENCODE_COMMAND, '--input', 'a JSON object with input_ids: number[][]', path);
  const empty = ids.length === 0 ? 'input_ids is []' : ids.findIndex((row) => !Array.isArray(row) || row.length === 0);
  if (empty !== -1) refuseArgument(ENCODE_COMMAND, '--input', 'input_ids with at least one sequence of at least one token id ([[101, 7592, 102]])', `${path} with ${typeof empty === 'string' ? empty : `input_ids[${empty}] = ${JSON.stringify(ids[empty])}`}`);
  return json as { input_ids: number[][] };
}

/**
 * The JSON `attnkit encode` writes: nested arrays, snake_case like Hugging Face outputs. The float32
 * values are written as the shortest decimals that read back as the same float32 (`shortestFloat32`).
 */
export interface EncodeResult {
  readonly backend: string;
  readonly tokens?: string[][];
  readonly last_hidden_state: number[][][];
  /** The encoder's pooler (families that have one). */
  readonly pooler_output?: number[][];
  /** As the model folder says (sentence-transformers modules; mean pooling for a plain folder); for texts, `SentenceTransformer.encode`'s. */
  readonly sentence_embedding: number[][];
  readonly timings_ms: { readonly load: number; readonly forward: number };
}

/**
 * Loads the model, encodes the texts (or ids) and returns the outputs; writes them to `--output`.
 * Token ids need no tokenizer: with `--input` only the encoder and the folder's modules after it
 * are loaded (`loadIdsEncoder`), so a folder of `config.json` and `model.safetensors` will do.
 *
 * @example
 * const result = await runEncode(parseEncodeArgs(['--text', 'hello world']));
 */
export async function runEncode(request: EncodeRequest): Promise<EncodeResult> {
  checkModelFolder(ENCODE_COMMAND, '--model', request.model);
  const ids = request.input === undefined ? undefined : await readIds(request.input); // before the model loads: a bad file fails at once
  const capabilities = await useBackend(request.backend);
  const started = performance.now();
  const forTexts = ids === undefined ? encoderSentenceModel(await loadSentenceEncoder(request.model), 'attnkit encode') : undefined;
  const model: IdsEncoder = forTexts ?? (await loadIdsEncoder(request.model));
  const loaded = performance.now();
  const toDispose: Tensor[] = [];
  try {
    const batch = forTexts?.tokenizer.encode(request.texts, { maxLength: forTexts.maxSeqLength });
    const inputs = batch ?? { inputIds: ids!.input_ids, ...(ids!.attention_mask === undefined ? {} : { attentionMask: ids!.attention_mask }), ...(ids!.token_type_ids === undefined ? {} : { tokenTypeIds: ids!.token_type_ids }) };
    const forwardStarted = performance.now();
    const out = model.encoder.forward(inputs);
    toDispose.push(out.lastHiddenState, ...(out.poolerOutput === undefined ? [] : [out.poolerOutput]));
    const last = (await out.lastHiddenState.array()) as number[][][];
    const forward = performance.now() - forwardStarted;
    let sentences: Tensor;
    if (forTexts !== undefined) {
      sentences = await forTexts.encode(request.texts, { normalize: request.normalize, ...(request.promptName === undefined ? {} : { promptName: request.promptName }) });
    } else {
      const mask = tensor2d((inputs.attentionMask ?? (inputs.inputIds as number[][]).map((row) => row.map(() => 1))) as number[][], undefined, 'int32');
      toDispose.push(mask);
      const pooled = model.sentenceEmbeddings(out.lastHiddenState, mask);
      sentences = request.normalize ? l2Normalize(pooled) : pooled;
      if (sentences !== pooled) toDispose.push(pooled);
    }
    toDispose.push(sentences);
    const result: EncodeResult = {
      backend: `${capabilities.backend}${capabilities.wasm === undefined ? '' : ` (${capabilities.wasm.threadCount} thread${capabilities.wasm.threadCount === 1 ? '' : 's'})`}`,
      ...(batch === undefined ? {} : { tokens: batch.tokens }),
      last_hidden_state: shortestFloat32Values(last),
      ...(out.poolerOutput === undefined ? {} : { pooler_output: shortestFloat32Values((await out.poolerOutput.array()) as number[][]) }),
      sentence_embedding: shortestFloat32Values((await sentences.array()) as number[][]),
      timings_ms: { load: Math.round(loaded - started), forward: Math.round(forward) },
    };
    if (request.output !== undefined) await writeOutputAtomically(request.output, `${JSON.stringify(result)}\n`, 'attnkit encode');
    return result;
  } finally {
    toDispose.forEach((t) => t.dispose());
    model.dispose();
  }
}
