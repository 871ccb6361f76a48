import { hubSourceOf } from '@attnkit/hub';
import { callerPath } from '../caller-path.js';
import { embeddedModelFolder } from '../embedded-model.js';
import type { CliOption } from './cli-option.js';
import { repeatedOption, switchOption, valueOption } from './option-kinds.js';

/**
 * A model named on the command line as the loaders take it: a Hugging Face id stays an id (a local
 * folder of that name wins), a URL stays a URL, a path is taken from where the command runs.
 *
 * @example
 * modelSourceOf('sentence-transformers/all-MiniLM-L6-v2'); // the id; modelSourceOf('./m') is an absolute path
 */
export function modelSourceOf(value: string): string {
  return hubSourceOf(value) !== undefined ? value : callerPath(value);
}

/**
 * The options that several commands take, each said once: name, placeholder, help, default and
 * parsing. A command lists the ones it takes beside its own (`--compare`, `--shard`, ...); where its
 * help must say more, it spreads an entry and gives its own `help` or `default`, never its own parsing.
 * Relative paths are taken from the directory the command runs in (`callerPath`).
 *
 * @example
 * const options = { model: OPTIONS.model, backend: OPTIONS.backend, json: OPTIONS.json('the table', 'a summary') };
 */
export const OPTIONS = {
  /** `--backend cpu|wasm`: the tfjs backend (webgl and webgpu need a browser). */
  backend: valueOption({
    name: 'backend',
    placeholder: 'cpu|wasm',
    help: 'the tfjs backend',
    default: 'wasm',
    parse: (value = 'wasm', refuse) => (value === 'cpu' || value === 'wasm' ? value : refuse('cpu or wasm (webgl needs a browser: use the web page)', value === '' ? '""' : value)),
  }),
  /**
   * `--model DIR|ID`: a folder (relative to where the command runs), a Hugging Face id (`org/name`,
   * read through the Hugging Face cache) or a URL; the embedded model without it.
   */
  model: valueOption({
    name: 'model',
    placeholder: 'DIR|ID',
    help: "a Hugging Face or sentence-transformers folder (relative to where you run the command), a Hugging Face id such as 'sentence-transformers/all-MiniLM-L6-v2' (read through the on-disk cache Python uses: downloaded once, HF_HUB_OFFLINE=1 for none; HF_TOKEN for gated models) or an http(s) URL",
    default: 'the embedded attnkit-tiny-bert (small, trained on WordNet)',
    parse: (value) => (value === undefined ? embeddedModelFolder() : modelSourceOf(value)),
  }),
  /** `--model DIR|ID` for commands that need a model of their own kind (no embedded default): `undefined` when absent. */
  causalModel: valueOption({
    name: 'model',
    placeholder: 'DIR|ID',
    help: "a causal language model folder (GPT-2, Llama, SmolLM, Mistral, Qwen2, Qwen3: config.json, model.safetensors, tokenizer files; relative to where you run the command), a Hugging Face id such as 'HuggingFaceTB/SmolLM2-135M-Instruct' (read through the on-disk cache Python uses) or an http(s) URL",
    parse: (value) => (value === undefined ? undefined : modelSourceOf(value)),
  }),
  /** `--text "..."`, repeated: the texts, none blank (`[]` without it). */
  text: repeatedOption({
    name: 'text',
    placeholder: '"..."',
    help: 'a text; repeat for more',
    parse: (values, refuse) => (values.some((t) => t.trim() === '') ? refuse('non-empty text', '""') : values),
  }),
  /** `--prompt-name NAME`: one of the folder's prompts (SentenceTransformer's `prompt_name`). */
  promptName: valueOption({ name: 'prompt-name', placeholder: 'NAME', help: "one of the folder's prompts", default: "the folder's default prompt, if any", parse: (value) => value }),
  /** `--normalize`: unit-length sentence embeddings. */
  normalize: switchOption({ name: 'normalize', help: 'scale the sentence embeddings to unit length', default: 'off' }),
  /** `--overwrite`: replace what is at the output. */
  overwrite: switchOption({ name: 'overwrite', help: 'replace an existing output', default: 'off' }),
  /**
   * `--json`: the result as JSON on stdout; `what` names what is printed, `otherwise` what the command
   * prints without it.
   */
  json: (what: string, otherwise: string): CliOption<boolean> => switchOption({ name: 'json', help: `print ${what} as JSON on stdout`, default: otherwise }),
  /** `-h, --help`, which every command takes (`attnkit` answers it before parsing anything else). */
  help: switchOption({ name: 'help', short: 'h', help: 'print this help' }),
} as const;
