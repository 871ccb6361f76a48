import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Tensor } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { loadBert, loadTokenizer, meanPooling } from '@attnkit/bert';
import { embeddedModelFolder } from './embedded-model.js';

/** What `attnkit encode` was asked to do. */
export interface EncodeRequest {
  readonly model: string;
  readonly backend: 'cpu' | 'wasm';
  readonly texts: readonly string[];
  readonly input: string | undefined;
  readonly output: string | undefined;
  readonly pool: 'mean' | undefined;
}

export const ENCODE_USAGE = 'attnkit encode [--model DIR] [--backend cpu|wasm] (--text "..." ... | --input ids.json) [--output out.json] [--pool mean]';

function usage(argument: string, expected: string, received: string): never {
  throw new InvalidArgumentError({ caller: 'attnkit encode', argument, expected, received, hint: `Usage: ${ENCODE_USAGE}` });
}

/**
 * Parses `attnkit encode` arguments. Defaults: the embedded model, the wasm backend.
 *
 * @example
 * parseEncodeArgs(['--text', 'hello', '--output', 'out.json']);
 */
export function parseEncodeArgs(argv: readonly string[]): EncodeRequest {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { model: { type: 'string' }, backend: { type: 'string' }, text: { type: 'string', multiple: true }, input: { type: 'string' }, output: { type: 'string' }, pool: { type: 'string' } },
      strict: true,
    }));
  } catch (error) {
    usage('arguments', 'the options of attnkit encode', (error as Error).message);
  }
  const backend = values.backend ?? 'wasm';
  if (backend !== 'cpu' && backend !== 'wasm') usage('--backend', 'cpu or wasm (webgl needs a browser: use the web page)', backend);
  if (values.pool !== undefined && values.pool !== 'mean') usage('--pool', 'mean', values.pool);
  const texts = values.text ?? [];
  if ((texts.length === 0) === (values.input === undefined)) usage('--text / --input', 'one or more --text, or one --input ids.json (not both)', texts.length === 0 ? 'neither' : 'both');
  if (texts.some((t) => t.trim() === '')) usage('--text', 'non-empty text', '""');
  return { model: values.model ?? embeddedModelFolder(), backend, texts, input: values.input, output: values.output, pool: values.pool as 'mean' | undefined };
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
  readonly pooler_output: number[][];
  readonly sentence_embedding?: number[][];
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
  const model = await loadBert(request.model);
  const tokenizer = request.input === undefined ? await loadTokenizer(request.model) : undefined;
  const loaded = performance.now();
  try {
    const batch = tokenizer !== undefined ? tokenizer.encode(request.texts, { maxLength: model.config.maxPositionEmbeddings }) : undefined;
    const ids = batch === undefined ? await readIds(request.input as string) : undefined;
    const inputs = batch ?? { inputIds: ids!.input_ids, ...(ids!.attention_mask === undefined ? {} : { attentionMask: ids!.attention_mask }), ...(ids!.token_type_ids === undefined ? {} : { tokenTypeIds: ids!.token_type_ids }) };
    const forwardStarted = performance.now();
    const out = model.forward(inputs);
    const toDispose: Tensor[] = [out.lastHiddenState, out.poolerOutput];
    try {
      const last = (await out.lastHiddenState.array()) as number[][][];
      const forward = performance.now() - forwardStarted;
      let sentence: number[][] | undefined;
      if (request.pool === 'mean') {
        const mask = inputs.attentionMask ?? (inputs.inputIds as number[][]).map((row) => row.map(() => 1));
        const { tensor2d } = await import('@tensorflow/tfjs-core');
        const maskTensor = tensor2d(mask as number[][], undefined, 'int32');
        const pooled = meanPooling(out.lastHiddenState, maskTensor);
        toDispose.push(maskTensor, pooled);
        sentence = (await pooled.array()) as number[][];
      }
      const result: EncodeResult = {
        backend: `${capabilities.backend}${capabilities.wasm === undefined ? '' : ` (${capabilities.wasm.threadCount} thread${capabilities.wasm.threadCount === 1 ? '' : 's'})`}`,
        ...(batch === undefined ? {} : { tokens: batch.tokens }),
        last_hidden_state: last,
        pooler_output: (await out.poolerOutput.array()) as number[][],
        ...(sentence === undefined ? {} : { sentence_embedding: sentence }),
        timings_ms: { load: Math.round(loaded - started), forward: Math.round(forward) },
      };
      if (request.output !== undefined) await writeFile(request.output, `${JSON.stringify(result)}\n`);
      return result;
    } finally {
      toDispose.forEach((t) => t.dispose());
    }
  } finally {
    model.dispose();
  }
}
