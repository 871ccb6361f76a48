import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Tensor } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { l2Normalize, loadSentenceEncoder } from '@attnkit/sentence';
import { callerPath } from './caller-path.js';
import { EXIT_CODES, type CommandHelp } from './command-help.js';
import { embeddedModelFolder } from './embedded-model.js';
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

export const ENCODE_USAGE = 'attnkit encode [--model DIR] [--backend cpu|wasm] (--text "..." ... | --input ids.json) [--prompt-name NAME] [--normalize] [--output out.json]';

/** `attnkit encode --help`. */
export const ENCODE_HELP: CommandHelp = {
  usage: ENCODE_USAGE,
  summary: 'Encodes texts (or token ids) and prints, or writes to --output, one JSON object: last_hidden_state, pooler_output (families with a pooler), tokens (for --text), sentence_embedding (as the model folder says; for texts, SentenceTransformer.encode\'s) and timings_ms. Relative paths are taken from the directory you run the command in.',
  options: [
    { flag: '--text "..."', description: 'a text to encode; repeat for more (or --input, not both)' },
    { flag: '--input ids.json', description: 'a JSON file with input_ids (and attention_mask, token_type_ids) as nested arrays' },
    { flag: '--model DIR', description: 'a Hugging Face or sentence-transformers folder, or an http(s) URL', default: 'the embedded attnkit-tiny-bert (small, trained on WordNet)' },
    { flag: '--backend cpu|wasm', description: 'the tfjs backend', default: 'wasm' },
    { flag: '--prompt-name NAME', description: "one of the folder's prompts (texts only)", default: "the folder's default prompt, if any" },
    { flag: '--normalize', description: 'scale sentence_embedding to unit length', default: 'off' },
    { flag: '--output out.json', description: 'write the JSON there (atomically: a temporary file, then renamed); a one-line summary goes to stderr', default: 'the JSON on stdout' },
    { flag: '-h, --help', description: 'print this help' },
  ],
  examples: [
    'attnkit encode --text "Hello world" --text "A second sentence." --output out.json',
    'attnkit encode --model ./my-st-model --text "Wie spät ist es?" --prompt-name query --normalize',
    'attnkit encode --model ./my-bert --backend cpu --input ids.json > out.json',
  ],
  notes: [EXIT_CODES],
};

function usage(argument: string, expected: string, received: string): never {
  throw new InvalidArgumentError({ caller: 'attnkit encode', argument, expected, received, hint: `Usage: ${ENCODE_USAGE} (attnkit encode --help lists every option)` });
}

/**
 * Parses `attnkit encode` arguments. Defaults: the embedded model, the wasm backend. Relative
 * `--model`, `--input` and `--output` are resolved against the directory the command was run from ({@link callerPath}).
 *
 * @example
 * parseEncodeArgs(['--text', 'hello', '--output', 'out.json']);
 */
export function parseEncodeArgs(argv: readonly string[]): EncodeRequest {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { model: { type: 'string' }, backend: { type: 'string' }, text: { type: 'string', multiple: true }, input: { type: 'string' }, output: { type: 'string' }, 'prompt-name': { type: 'string' }, normalize: { type: 'boolean' } },
      strict: true,
    }));
  } catch (error) {
    usage('arguments', 'the options of attnkit encode', (error as Error).message);
  }
  const backend = values.backend ?? 'wasm';
  if (backend !== 'cpu' && backend !== 'wasm') usage('--backend', 'cpu or wasm (webgl needs a browser: use the web page)', backend);
  const texts = values.text ?? [];
  if ((texts.length === 0) === (values.input === undefined)) usage('--text / --input', 'one or more --text, or one --input ids.json (not both)', texts.length === 0 ? 'neither' : 'both');
  if (texts.some((t) => t.trim() === '')) usage('--text', 'non-empty text', '""');
  if (values['prompt-name'] !== undefined && values.input !== undefined) usage('--prompt-name', 'texts (--text): ids from --input are embedded as they are', '--input');
  const path = (value: string | undefined) => (value === undefined ? undefined : callerPath(value));
  return { model: path(values.model) ?? embeddedModelFolder(), backend, texts, input: path(values.input), output: path(values.output), promptName: values['prompt-name'], normalize: values.normalize === true };
}

async function readIds(path: string): Promise<{ input_ids: number[][]; attention_mask?: number[][]; token_type_ids?: number[][] }> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    usage('--input', 'a readable JSON file with input_ids (and attention_mask, token_type_ids) as nested arrays', `${path} (${(error as Error).message})`);
  }
  if (typeof json !== 'object' || json === null || !Array.isArray((json as { input_ids?: unknown }).input_ids)) usage('--input', 'a JSON object with input_ids: number[][]', path);
  return json as { input_ids: number[][] };
}

/** The JSON `attnkit encode` writes: nested arrays, snake_case like Hugging Face outputs. */
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
 *
 * @example
 * const result = await runEncode(parseEncodeArgs(['--text', 'hello world']));
 */
export async function runEncode(request: EncodeRequest): Promise<EncodeResult> {
  const capabilities = await useBackend(request.backend);
  const started = performance.now();
  const model = await loadSentenceEncoder(request.model);
  const loaded = performance.now();
  const toDispose: Tensor[] = [];
  try {
    const batch = request.input === undefined ? model.tokenizer.encode(request.texts, { maxLength: model.maxSeqLength }) : undefined;
    const ids = batch === undefined ? await readIds(request.input as string) : undefined;
    const inputs = batch ?? { inputIds: ids!.input_ids, ...(ids!.attention_mask === undefined ? {} : { attentionMask: ids!.attention_mask }), ...(ids!.token_type_ids === undefined ? {} : { tokenTypeIds: ids!.token_type_ids }) };
    const forwardStarted = performance.now();
    const out = model.encoder.forward(inputs);
    toDispose.push(out.lastHiddenState, ...(out.poolerOutput === undefined ? [] : [out.poolerOutput]));
    const last = (await out.lastHiddenState.array()) as number[][][];
    const forward = performance.now() - forwardStarted;
    let sentences: Tensor;
    if (batch !== undefined) {
      sentences = await model.encode(request.texts, { normalize: request.normalize, ...(request.promptName === undefined ? {} : { promptName: request.promptName }) });
    } else {
      const { tensor2d } = await import('@tensorflow/tfjs-core');
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
      last_hidden_state: last,
      ...(out.poolerOutput === undefined ? {} : { pooler_output: (await out.poolerOutput.array()) as number[][] }),
      sentence_embedding: (await sentences.array()) as number[][],
      timings_ms: { load: Math.round(loaded - started), forward: Math.round(forward) },
    };
    if (request.output !== undefined) await writeOutputAtomically(request.output, `${JSON.stringify(result)}\n`, 'attnkit encode');
    return result;
  } finally {
    toDispose.forEach((t) => t.dispose());
    model.dispose();
  }
}
