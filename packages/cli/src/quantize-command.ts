import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { useBackend } from '@attnkit/backends';
import { saveInt8Folder } from '@attnkit/train';
import { callerPath } from './caller-path.js';
import { checkModelFolder } from './check-model-folder.js';
import { defineCommand } from './command-line/cli-command.js';
import { EXIT_CODES } from './command-line/command-help.js';
import { OPTIONS } from './command-line/option-table.js';
import { parseCommandLine } from './command-line/parse-command-line.js';

/** `attnkit quantize`. */
export const QUANTIZE_COMMAND = defineCommand({
  name: 'quantize',
  purpose: 'writes the int8 folder of a model: Linear weights int8, a quarter of their float32 bytes, which every command loads as an int8 model',
  usage: 'attnkit quantize <model-folder> <output-folder> [--backend cpu|wasm] [--overwrite] [--json]',
  summary: "Writes the int8 version of a Hugging Face or sentence-transformers folder: every Linear weight of the encoder stored int8 per output channel with a float32 scale (compressed-tensors' int-quantized layout, a quantization_config in config.json), a quarter of its float32 bytes; tokenizer, pooling and Dense files copied as they are. Every attnkit command loads the folder as an int8 model, with the numbers loadSentenceEncoder(floatFolder, { quantize: 'int8' }) gives, bit for bit.",
  positionals: true,
  options: {
    backend: { ...OPTIONS.backend, help: 'the tfjs backend the float model is loaded on to quantize it' },
    overwrite: OPTIONS.overwrite,
    json: OPTIONS.json('the summary (files, bytes before and after)', 'a one-line summary on stderr'),
  },
  examples: ['attnkit quantize ./all-MiniLM-L6-v2 ./all-MiniLM-L6-v2-int8', 'attnkit quantize ./bge-small-en-v1.5 ./bge-int8 --overwrite --json'],
  notes: ['The output folder is written to a temporary sibling and renamed into place: a crash never leaves half of it.', EXIT_CODES],
});

/** What `attnkit quantize` was asked to do. */
export interface QuantizeRequest {
  readonly input: string;
  readonly output: string;
  readonly backend: 'cpu' | 'wasm';
  readonly overwrite: boolean;
  readonly json: boolean;
}

/** What `attnkit quantize` did: the files written and their bytes, next to the same files of the input. */
export interface QuantizeSummary {
  readonly input: string;
  readonly output: string;
  readonly files: number;
  /** Bytes of the input's files that the output holds too (the float folder, as downloaded). */
  readonly inputBytes: number;
  /** Bytes of the output folder. */
  readonly outputBytes: number;
}

/**
 * Parses `attnkit quantize` arguments: two folders (relative to where the command runs), then options.
 *
 * @example
 * parseQuantizeArgs(['./all-MiniLM-L6-v2', './all-MiniLM-L6-v2-int8', '--backend', 'cpu']);
 */
export function parseQuantizeArgs(argv: readonly string[]): QuantizeRequest {
  const { values, positionals, refuse } = parseCommandLine(QUANTIZE_COMMAND, argv);
  if (positionals.length !== 2) refuse('folders', 'two: the float model folder and the folder to write the int8 one to', positionals.length === 0 ? 'none' : positionals.map((p) => JSON.stringify(p)).join(', '));
  const [input, output] = positionals.map((p) => callerPath(p)) as [string, string];
  if (input === output) refuse('folders', 'two different folders (the input is read, the output written)', `${input} twice`);
  return { input, output, ...values };
}

/**
 * Writes the int8 folder (`saveInt8Folder` of `@attnkit/train`) and measures it against the input.
 *
 * @example
 * const summary = await runQuantize(parseQuantizeArgs(['./minilm', './minilm-int8'])); // { files: 11, inputBytes: 90_900_000, outputBytes: 23_700_000, ... }
 */
export async function runQuantize(request: QuantizeRequest, onNotice?: (message: string) => void): Promise<QuantizeSummary> {
  checkModelFolder(QUANTIZE_COMMAND, 'model-folder', request.input);
  await useBackend(request.backend);
  await saveInt8Folder(request.input, request.output, { overwrite: request.overwrite, ...(onNotice === undefined ? {} : { onNotice }) });
  const entries = await readdir(request.output, { recursive: true, withFileTypes: true });
  const paths = entries.filter((e) => e.isFile()).map((e) => relative(request.output, join(e.parentPath, e.name)));
  const size = async (folder: string, path: string) => (await stat(join(folder, path)).catch(() => undefined))?.size ?? 0;
  let [inputBytes, outputBytes] = [0, 0];
  for (const path of paths) {
    inputBytes += /^https?:/.test(request.input) ? 0 : await size(request.input, path);
    outputBytes += await size(request.output, path);
  }
  return { input: request.input, output: request.output, files: paths.length, inputBytes, outputBytes };
}

/**
 * The summary as a person reads it.
 *
 * @example
 * formatQuantizeSummary(summary); // 'attnkit quantize: ./minilm (90.9 MB) -> ./minilm-int8 (23.7 MB, 26%), 11 files'
 */
export function formatQuantizeSummary(summary: QuantizeSummary): string {
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(bytes < 1e6 ? 3 : 1)} MB`;
  const share = summary.inputBytes > 0 ? `, ${Math.round((100 * summary.outputBytes) / summary.inputBytes)}%` : '';
  return `attnkit quantize: ${summary.input}${summary.inputBytes > 0 ? ` (${mb(summary.inputBytes)})` : ''} -> ${summary.output} (${mb(summary.outputBytes)}${share}), ${summary.files} files`;
}
