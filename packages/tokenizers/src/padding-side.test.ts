import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/sentence-decoders.json' with { type: 'json' };
import { Tokenizer } from './tokenizer.js';
import { loadTokenizer } from './load-tokenizer.js';

// padding_side as transformers 5.17 reads it: the left-padded batches transformers made for the decoder
// embedding folders (tooling/reference/make_decoder_embedding_fixtures.py), and the right-padded default.
interface Folder {
  readonly folder: string;
  readonly texts: string[];
  readonly prompts: Record<string, string>;
  readonly default_prompt_name: string | null;
  readonly batch: { input_ids: number[][]; attention_mask: number[][] };
}
const folders = Object.entries((fixtures as unknown as { folders: Record<string, Folder> }).folders);
const path = (relative: string) => decodeURIComponent(new URL(`../../../tooling/reference/fixtures/${relative}/`, import.meta.url).pathname);

describe('padding side', () => {
  it('has two folders to check', () => expect(folders.map(([name]) => name)).toEqual(['qwen3-lasttoken', 'llama-mean-prompt']));

  it.each(folders)('%s: padding_side "left" of tokenizer_config.json pads as transformers does', async (_, f) => {
    const tokenizer = await loadTokenizer(path(f.folder));
    expect(tokenizer.paddingSide).toBe('left');
    const prompt = f.default_prompt_name === null ? '' : (f.prompts[f.default_prompt_name] as string);
    const batch = tokenizer.encode(f.texts.map((t) => prompt + t), { maxLength: 64 });
    expect(batch.inputIds).toEqual(f.batch.input_ids);
    expect(batch.attentionMask).toEqual(f.batch.attention_mask);
    const right = tokenizer.encode(f.texts.map((t) => prompt + t), { maxLength: 64, paddingSide: 'right' });
    expect(right.attentionMask.map((row) => row.indexOf(1))).toEqual(f.texts.map(() => 0)); // every row starts at 0
    expect(right.inputIds.map((row, i) => row.filter((_, t) => right.attentionMask[i]![t] === 1))).toEqual(batch.inputIds.map((row, i) => row.filter((_, t) => batch.attentionMask[i]![t] === 1)));
  });

  it('reads tokenizer.json\'s padding direction when tokenizer_config.json says nothing; right otherwise', () => {
    const dir = path('sentence-decoders/qwen3-lasttoken');
    const json = JSON.parse(readFileSync(`${dir}tokenizer.json`, 'utf8')) as Record<string, unknown>;
    const config = JSON.parse(readFileSync(`${dir}tokenizer_config.json`, 'utf8')) as Record<string, unknown>;
    const { padding_side: _, ...withoutSide } = config;
    expect(new Tokenizer(json, withoutSide).paddingSide).toBe('right');
    expect(new Tokenizer({ ...json, padding: { strategy: 'BatchLongest', direction: 'Left', pad_id: 317, pad_type_id: 0, pad_token: '<|endoftext|>' } }, withoutSide).paddingSide).toBe('left');
    expect(new Tokenizer({ ...json, padding: { strategy: 'BatchLongest', direction: 'Left', pad_id: 317, pad_type_id: 0, pad_token: '<|endoftext|>' } }, config).paddingSide).toBe('left');
    expect(new Tokenizer(json, { ...config, padding_side: 'right' }).paddingSide).toBe('right');
  });

  it('refuses a padding side that is neither left nor right', () => {
    const dir = path('sentence-decoders/qwen3-lasttoken');
    const json = JSON.parse(readFileSync(`${dir}tokenizer.json`, 'utf8')) as Record<string, unknown>;
    const error = thrown(() => new Tokenizer(json, { padding_side: 'middle' }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("Tokenizer: 'tokenizerConfig.padding_side' must be 'left' or 'right' (as transformers accepts); received string 'middle'.");
    const tokenizer = new Tokenizer(json, { pad_token: '<|endoftext|>' });
    expect(thrown(() => tokenizer.encode(['a'], { paddingSide: 'top' as never })).message).toBe("Tokenizer.encode: 'paddingSide' must be 'left' or 'right'; received string 'top'.");
  });
});
