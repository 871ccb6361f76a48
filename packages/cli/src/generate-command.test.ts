import { copyFileSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTokenizer } from '@attnkit/tokenizers';
import chatFixtures from '@attnkit/reference/fixtures/chat-templates.json' with { type: 'json' };
import decoderFixtures from '@attnkit/reference/fixtures/decoders.json' with { type: 'json' };
import { formatGenerateSummary, parseGenerateArgs, runGenerate } from './generate-command.js';
import { expectUsageError } from './testing/expect-usage-error.js';

const fixtures = decodeURIComponent(new URL('../../../tooling/reference/fixtures/', import.meta.url).pathname);
const decoders = (decoderFixtures as unknown as { cases: Record<string, { folder: string; texts: string[]; greedy: { single: number[][] } }> }).cases;
const generation = (chatFixtures as unknown as { generation: { folder: string; model: string; messages: Array<{ role: string; content: string }>; prompt_ids: number[]; new_tokens: number[]; max_new_tokens: number; eos_token_id: number[] } }).generation;
const eosOf: Record<string, number[]> = { gpt2: [319], llama: [2], qwen3: [317, 319] }; // each folder's generation_config.json

/** transformers' greedy tokens (made with eos_token_id=None) as generate with the folder's end-of-sequence ids gives them: up to the first. */
const untilEos = (ids: readonly number[], eos: readonly number[]) => {
  const end = ids.findIndex((id) => eos.includes(id));
  return end < 0 ? [...ids] : ids.slice(0, end + 1);
};

// the qwen3 decoder fixture's model with the qwen3 chat fixture's tokenizer files (its chat template in chat_template.jinja)
const dir = mkdtempSync(join(tmpdir(), 'attnkit-generate-'));
const chatFolder = join(dir, 'qwen3-chat');
mkdirSync(chatFolder);
for (const file of ['config.json', 'generation_config.json', 'model.safetensors']) copyFileSync(join(fixtures, generation.model, file), join(chatFolder, file));
for (const file of readdirSync(join(fixtures, generation.folder))) copyFileSync(join(fixtures, generation.folder, file), join(chatFolder, file));

describe('attnkit generate', () => {
  it('reads its options', () => {
    const request = parseGenerateArgs(['--model', join(fixtures, 'decoders/gpt2'), '--prompt', 'Hi', '--temperature', '0.7', '--top-k', '5', '--top-p', '0.9', '--seed', '3', '--stop', '.', '--stop', '\n', '--max-new-tokens', '8']);
    expect(request).toEqual({ model: join(fixtures, 'decoders/gpt2'), prompt: 'Hi', chat: false, system: undefined, maxNewTokens: 8, temperature: 0.7, topK: 5, topP: 0.9, seed: 3, stop: ['.', '\n'], backend: 'wasm', json: false });
  });

  it.each([
    [['--prompt', 'Hi'], "attnkit generate: '--model' must be a causal language model folder, Hugging Face id or URL; received none."],
    [['--model', 'm'], "attnkit generate: '--prompt' must be the text to continue (--prompt \"...\"); received none."],
    [['--model', 'm', '--prompt', '  '], "attnkit generate: '--prompt' must be non-empty text; received \"\"."],
    [['--model', 'm', '--prompt', 'Hi', '--system', 'Be brief.'], "attnkit generate: '--system' must be given with --chat (a system message is part of a chat template); received --system without --chat."],
    [['--model', 'm', '--prompt', 'Hi', '--temperature=-1'], "attnkit generate: '--temperature' must be a number from 0 (greedy) to 100; received \"-1\"."],
    [['--model', 'm', '--prompt', 'Hi', '--temperature', 'hot'], "attnkit generate: '--temperature' must be a number from 0 (greedy) to 100; received \"hot\"."],
    [['--model', 'm', '--prompt', 'Hi', '--temperature', 'NaN'], "attnkit generate: '--temperature' must be a number from 0 (greedy) to 100; received \"NaN\"."],
    [['--model', 'm', '--prompt', 'Hi', '--top-p', '0'], "attnkit generate: '--top-p' must be a number in (0, 1]; received \"0\"."],
    [['--model', 'm', '--prompt', 'Hi', '--top-p', '1.5'], "attnkit generate: '--top-p' must be a number in (0, 1]; received \"1.5\"."],
    [['--model', 'm', '--prompt', 'Hi', '--top-k=-3'], "attnkit generate: '--top-k' must be a whole number from 0 to 1000000; received \"-3\"."],
    [['--model', 'm', '--prompt', 'Hi', '--max-new-tokens', '0'], "attnkit generate: '--max-new-tokens' must be a whole number from 1 to 1000000; received \"0\"."],
    [['--model', 'm', '--prompt', 'Hi', '--max-new-tokens', '2.5'], "attnkit generate: '--max-new-tokens' must be a whole number from 1 to 1000000; received \"2.5\"."],
    [['--model', 'm', '--prompt', 'Hi', '--seed', '1e3'], "attnkit generate: '--seed' must be a whole number from 0 to 4294967295; received \"1e3\"."],
    [['--model', 'm', '--prompt', 'Hi', '--temperature', '0', '--top-k', '5'], "attnkit generate: '--top-k' must be left out with --temperature 0 (greedy decoding draws nothing); received --temperature 0 --top-k."],
    [['--model', 'm', '--prompt', 'Hi', '--stop', ''], "attnkit generate: '--stop' must be non-empty text; received \"\"."],
    [['--model', 'm', '--prompt', 'Hi', '--backend', 'webgl'], "attnkit generate: '--backend' must be cpu or wasm (webgl needs a browser: use the web page); received webgl."],
    [['--model', 'm', '--promt', 'Hi'], "attnkit generate: 'arguments' must be the options of attnkit generate; received Unknown option '--promt'."],
  ])('refuses %j with the usage', (argv, message) => {
    expectUsageError(() => parseGenerateArgs(argv), message, 'Usage: attnkit generate');
  });

  // transformers' 32 greedy tokens (eos_token_id=None), the first 16 asked for here. These random models write byte
  // sequences that are not UTF-8: the byte-level BPE pieces (gpt2, qwen3) still stream the whole text's replacement
  // characters, the byte-fallback pieces (llama) decode them differently window by window (each piece valid UTF-8).
  it.each([
    ['gpt2', 3, true],
    ['llama', 1, false], // SentencePiece-style with byte fallback: an emoji in the prompt
    ['qwen3', 0, true],
  ] as const)("greedy (--temperature 0) on the %s fixture equals transformers' greedy tokens for text %i (wasm); the streamed pieces make the text: %s", async (name, index, piecesMakeText) => {
    const fixture = decoders[name]!;
    const expected = untilEos(fixture.greedy.single[index]!.slice(0, 16), eosOf[name]!);
    const pieces: string[] = [];
    const folder = join(fixtures, fixture.folder);
    const result = await runGenerate(parseGenerateArgs(['--model', folder, '--prompt', fixture.texts[index]!, '--temperature', '0', '--max-new-tokens', '16']), (piece) => pieces.push(piece));
    expect(result.tokenIds).toEqual(expected);
    expect(result.newTokens).toBe(expected.length);
    expect(result.finishReason).toBe(expected.length < 16 ? 'eos' : 'length');
    const tokenizer = await loadTokenizer(folder);
    expect(result.text).toBe(tokenizer.decode(expected));
    expect(pieces.join('') === result.text).toBe(piecesMakeText);
    expect(result.promptTokens).toBe(tokenizer.encode([fixture.texts[index]!], { padding: false, truncation: false }).inputIds[0]!.length);
    console.log(formatGenerateSummary(result, 'wasm'));
  }, 30_000);

  it("--chat renders the folder's chat template (chat_template.jinja) with --system, and continues it as transformers does (--json shape)", async () => {
    const [system, user] = generation.messages;
    const result = await runGenerate(parseGenerateArgs(['--model', chatFolder, '--chat', '--system', system!.content, '--prompt', user!.content, '--temperature', '0', '--max-new-tokens', String(generation.max_new_tokens), '--json']), () => {
      throw new Error('--json streams nothing');
    });
    expect(Object.keys(result)).toEqual(['text', 'tokenIds', 'promptTokens', 'newTokens', 'finishReason', 'timings']);
    expect(Object.keys(result.timings)).toEqual(['loadMs', 'prefillMs', 'decodeMs', 'tokensPerSecond']);
    expect(result.promptTokens).toBe(generation.prompt_ids.length);
    expect(result.tokenIds).toEqual(untilEos(generation.new_tokens, generation.eos_token_id));
    expect(result.timings.prefillMs).toBeGreaterThanOrEqual(0);
  }, 30_000);

  it('samples reproducibly with --seed, and stops at a --stop string', async () => {
    const argv = ['--model', chatFolder, '--prompt', 'The cat sat', '--max-new-tokens', '8', '--seed', '7', '--temperature', '1.5', '--json'];
    const [a, b] = [await runGenerate(parseGenerateArgs(argv)), await runGenerate(parseGenerateArgs(argv))];
    expect(a.tokenIds).toEqual(b.tokenIds);
    const stop = a.text.slice(2, 3); // a character the sampled text holds
    const stopped = await runGenerate(parseGenerateArgs([...argv, '--stop', stop]));
    expect(stopped.finishReason).toBe('stop');
    expect(stopped.text.endsWith(stop) || stopped.text.includes(stop)).toBe(true);
  }, 30_000);

  it('refuses --chat for a folder without a chat template before reading the model (exit 2: a usage error)', async () => {
    const folder = join(fixtures, decoders['gpt2']!.folder);
    const error = await runGenerate(parseGenerateArgs(['--model', folder, '--chat', '--prompt', 'Hi'])).then(() => undefined, (e: unknown) => e as Error);
    expectUsageError(() => {
      throw error;
    }, `attnkit generate: '--chat' must be a model folder with a chat template (chat_template.jinja, or a "chat_template" key in tokenizer_config.json); received ${folder}, which has none (a base model: leave out --chat).`, 'Usage: attnkit generate');
    const missing = await runGenerate(parseGenerateArgs(['--model', join(dir, 'missing'), '--prompt', 'Hi'])).then(() => undefined, (e: unknown) => e as Error);
    expect(missing?.message).toContain(`attnkit generate: '--model' must be a model folder, a Hugging Face id ('org/name') or an http(s) URL; received ${join(dir, 'missing')}, which does not exist.`);
  });
});
