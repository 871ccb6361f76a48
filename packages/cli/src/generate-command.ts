import { useBackend } from '@attnkit/backends';
import { modelFiles } from '@attnkit/hub';
import { loadCausalLM, type FinishReason, type GenerateOptions } from '@attnkit/models';
import { loadTokenizer, type ChatMessage } from '@attnkit/tokenizers';
import { checkModelFolder } from './check-model-folder.js';
import { defineCommand } from './command-line/cli-command.js';
import { EXIT_CODES } from './command-line/command-help.js';
import { realNumber, repeatedOption, switchOption, valueOption, wholeNumberOption } from './command-line/option-kinds.js';
import { OPTIONS } from './command-line/option-table.js';
import { parseCommandLine } from './command-line/parse-command-line.js';
import { refuseArgument } from './command-line/refuse-argument.js';

/** What `attnkit generate` was asked to do. */
export interface GenerateRequest {
  readonly model: string;
  readonly backend: 'cpu' | 'wasm';
  readonly prompt: string;
  /** Render the folder's chat template around the prompt (a user message, with the assistant's header after it). */
  readonly chat: boolean;
  /** A system message before the prompt (with `chat`). */
  readonly system: string | undefined;
  readonly maxNewTokens: number | undefined;
  /** 0: greedy decoding; above 0: sampling at that temperature. Absent: the folder's generation_config.json. */
  readonly temperature: number | undefined;
  readonly topK: number | undefined;
  readonly topP: number | undefined;
  readonly seed: number | undefined;
  readonly stop: readonly string[];
  readonly json: boolean;
}

/** `attnkit generate`. */
export const GENERATE_COMMAND = defineCommand({
  name: 'generate',
  purpose: 'text from a causal language model (GPT-2, Llama, Mistral, Qwen2, Qwen3), streamed as it comes; --chat applies the folder\'s chat template',
  usage: 'attnkit generate --model DIR|ID --prompt "..." [--chat] [--system "..."] [--max-new-tokens N] [--temperature X] [--top-k N] [--top-p X] [--seed N] [--stop "..." ...] [--backend cpu|wasm] [--json]',
  summary:
    "Generates a continuation of --prompt and writes it to stdout piece by piece as it is generated (each piece valid UTF-8). With --chat the prompt is the user message of a conversation (after --system, if given), rendered with the folder's chat template (chat_template.jinja or tokenizer_config.json's chat_template) and the assistant's header, as transformers' apply_chat_template(add_generation_prompt=True) does. What is not given comes from the folder's generation_config.json (greedy or sampling, temperature, top-k, top-p, end-of-sequence ids, length), then transformers' defaults. Load and speed go to stderr; --json prints one object at the end instead: { text, tokenIds, promptTokens, newTokens, finishReason, timings: { loadMs, prefillMs, decodeMs, tokensPerSecond } }.",
  options: {
    model: { ...OPTIONS.causalModel, default: 'none: required' },
    prompt: valueOption({ name: 'prompt', placeholder: '"..."', help: 'the text to continue (with --chat: the user message)', parse: (value, refuse) => (value !== undefined && value.trim() === '' ? refuse('non-empty text', '""') : value) }),
    chat: switchOption({ name: 'chat', help: "apply the folder's chat template: the prompt as a user message, then the assistant's header", default: 'off (the prompt as it is, with the special tokens the tokenizer adds)' }),
    system: valueOption({ name: 'system', placeholder: '"..."', help: 'a system message before the prompt (needs --chat)', parse: (value) => value }),
    maxNewTokens: wholeNumberOption({ name: 'max-new-tokens', help: 'the most tokens to generate', default: "generation_config.json's, else 20", min: 1, max: 1_000_000 }),
    temperature: valueOption({ name: 'temperature', placeholder: 'X', help: '0: greedy decoding (the most likely token each step); above 0: sampling, flatter as it grows', default: "generation_config.json's (greedy without one)", parse: realNumber((n) => n >= 0 && n <= 100, 'a number from 0 (greedy) to 100') }),
    topK: wholeNumberOption({ name: 'top-k', help: 'sample from the k most likely tokens only (0: all); implies sampling', default: "generation_config.json's, else 50", min: 0, max: 1_000_000 }),
    topP: valueOption({ name: 'top-p', placeholder: 'X', help: 'sample from the most likely tokens up to this probability; implies sampling', default: "generation_config.json's, else 1", parse: realNumber((n) => n > 0 && n <= 1, 'a number in (0, 1]') }),
    seed: wholeNumberOption({ name: 'seed', help: 'seeds sampling (implies sampling): the same seed, the same text on one backend', default: 'a random seed', min: 0, max: 2 ** 32 - 1 }),
    stop: repeatedOption({ name: 'stop', placeholder: '"..."', help: 'stop once the new text contains this; repeat for more', parse: (values, refuse) => (values.some((v) => v === '') ? refuse('non-empty text', '""') : values) }),
    backend: OPTIONS.backend,
    json: OPTIONS.json('{ text, tokenIds, promptTokens, newTokens, finishReason, timings } at the end', 'the text streamed'),
  },
  examples: [
    'attnkit generate --model ./SmolLM2-135M-Instruct --chat --prompt "What is the capital of France?"',
    'attnkit generate --model HuggingFaceTB/SmolLM2-135M --prompt "Once upon a time" --max-new-tokens 40 --temperature 0.7 --seed 1',
    'attnkit generate --model ./Qwen3-0.6B --chat --system "Answer in one word." --prompt "Capital of Japan?" --temperature 0 --json',
  ],
  notes: [EXIT_CODES],
});

/**
 * Parses `attnkit generate` arguments. `--model` and `--prompt` are required; `--system` needs
 * `--chat`; `--temperature 0` (greedy) takes no `--top-k`, `--top-p` or `--seed`. A relative
 * `--model` is taken from the directory the command runs in.
 *
 * @example
 * parseGenerateArgs(['--model', './SmolLM2-135M-Instruct', '--chat', '--prompt', 'Hi!']);
 */
export function parseGenerateArgs(argv: readonly string[]): GenerateRequest {
  const { values, refuse } = parseCommandLine(GENERATE_COMMAND, argv);
  const model = values.model ?? refuse('--model', 'a causal language model folder, Hugging Face id or URL', 'none');
  const prompt = values.prompt ?? refuse('--prompt', 'the text to continue (--prompt "...")', 'none');
  if (values.system !== undefined && !values.chat) refuse('--system', 'given with --chat (a system message is part of a chat template)', '--system without --chat');
  if (values.temperature === 0) {
    const sampling = (['topK', 'topP', 'seed'] as const).find((key) => values[key] !== undefined);
    if (sampling !== undefined) refuse(`--${sampling === 'topK' ? 'top-k' : sampling === 'topP' ? 'top-p' : 'seed'}`, 'left out with --temperature 0 (greedy decoding draws nothing)', `--temperature 0 --${sampling === 'topK' ? 'top-k' : sampling === 'topP' ? 'top-p' : 'seed'}`);
  }
  return { ...values, model, prompt };
}

/** What `attnkit generate --json` prints (and `runGenerate` returns). */
export interface GenerateResult {
  /** The new tokens decoded (special tokens left out, a stop string kept: transformers' `decode(new_tokens, skip_special_tokens=True)`). */
  readonly text: string;
  /** The new token ids (the end-of-sequence id included when it ended generation). */
  readonly tokenIds: number[];
  readonly promptTokens: number;
  readonly newTokens: number;
  readonly finishReason: FinishReason;
  readonly timings: {
    /** Reading the tokenizer and the model. */
    readonly loadMs: number;
    /** The prompt's forward pass, to the first new token. */
    readonly prefillMs: number;
    /** From the first new token to the last. */
    readonly decodeMs: number;
    /** New tokens after the first per second of decoding; `null` with a single new token. */
    readonly tokensPerSecond: number | null;
  };
}

/**
 * Loads the folder's tokenizer and causal LM, builds the prompt (the chat template with `--chat`)
 * and generates, calling `write` with each text piece as it comes (none with `--json`). A folder
 * without a chat template for `--chat` is a usage error before the model is read. Frees the model.
 *
 * @example
 * const result = await runGenerate(parseGenerateArgs(['--model', './gpt2', '--prompt', 'Hello']), (piece) => process.stdout.write(piece));
 */
export async function runGenerate(request: GenerateRequest, write: (piece: string) => void = () => {}): Promise<GenerateResult> {
  checkModelFolder(GENERATE_COMMAND, '--model', request.model);
  await useBackend(request.backend);
  const started = performance.now();
  const files = modelFiles(request.model, { caller: 'attnkit generate' }); // read once, by the tokenizer and the model
  const tokenizer = await loadTokenizer(files);
  if (request.chat && tokenizer.chatTemplates.size === 0) {
    refuseArgument(GENERATE_COMMAND, '--chat', 'a model folder with a chat template (chat_template.jinja, or a "chat_template" key in tokenizer_config.json)', `${request.model}, which has none (a base model: leave out --chat)`);
  }
  const messages: ChatMessage[] = [...(request.system === undefined ? [] : [{ role: 'system', content: request.system }]), { role: 'user', content: request.prompt }];
  const promptIds = request.chat ? tokenizer.applyChatTemplate(messages, { addGenerationPrompt: true, tokenize: true }) : (tokenizer.encode([request.prompt], { padding: false, truncation: false }).inputIds[0] ?? []);
  const model = await loadCausalLM(files);
  const loaded = performance.now();
  try {
    let first: number | undefined;
    let last = loaded;
    const options: GenerateOptions = {
      tokenizer,
      ...(request.maxNewTokens === undefined ? {} : { maxNewTokens: request.maxNewTokens }),
      ...samplingOf(request),
      ...(request.stop.length === 0 ? {} : { stop: request.stop }),
      onToken: () => {
        last = performance.now();
        first ??= last;
      },
    };
    const pieces = model.stream(promptIds, options);
    let step = await pieces.next();
    while (step.done !== true) {
      if (!request.json) write(step.value.text);
      step = await pieces.next();
    }
    const result = step.value;
    const tokenIds = result.tokens[0] ?? [];
    const decodeMs = first === undefined ? 0 : last - first;
    return {
      text: tokenizer.decode(tokenIds), // transformers' decode(new_tokens, skip_special_tokens=True)
      tokenIds,
      promptTokens: promptIds.length,
      newTokens: tokenIds.length,
      finishReason: result.finishReasons[0] ?? 'length',
      timings: {
        loadMs: Math.round(loaded - started),
        prefillMs: Math.round((first ?? last) - loaded),
        decodeMs: Math.round(decodeMs),
        tokensPerSecond: tokenIds.length > 1 && decodeMs > 0 ? Math.round(((tokenIds.length - 1) / decodeMs) * 10_000) / 10 : null,
      },
    };
  } finally {
    model.dispose();
  }
}

/** The sampling options the command line gives: `--temperature 0` is greedy; a temperature above 0, `--top-k`, `--top-p` or `--seed` samples. */
function samplingOf(request: GenerateRequest): Partial<GenerateOptions> {
  if (request.temperature === 0) return { doSample: false };
  const sampled = request.temperature !== undefined || request.topK !== undefined || request.topP !== undefined || request.seed !== undefined;
  return {
    ...(sampled ? { doSample: true } : {}),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.topK === undefined ? {} : { topK: request.topK }),
    ...(request.topP === undefined ? {} : { topP: request.topP }),
    ...(request.seed === undefined ? {} : { seed: request.seed }),
  };
}

/** The one-line summary on stderr: tokens, why generation stopped, timings. */
export function formatGenerateSummary(result: GenerateResult, backend: string): string {
  const { loadMs, prefillMs, decodeMs, tokensPerSecond } = result.timings;
  return `attnkit generate: ${result.promptTokens} prompt + ${result.newTokens} new tokens (${result.finishReason}) on ${backend}, load ${loadMs} ms, prefill ${prefillMs} ms, decode ${decodeMs} ms${tokensPerSecond === null ? '' : `, ${tokensPerSecond} tokens/s`}`;
}
