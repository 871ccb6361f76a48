import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { ModelLoadError } from '@attnkit/hub';
import { thrown } from '@attnkit/test-utils';
import fixture from '@attnkit/reference/fixtures/tokenizer-components.json' with { type: 'json' };
import { loadTokenizer } from './load-tokenizer.js';
import { Tokenizer } from './tokenizer.js';

// Every normalizer, pre-tokenizer, model, post-processor and decoder type (and setting) of the
// tokenizers library against its own ids and decodes (tooling/reference/make_tokenizer_component_fixtures.py).
interface Spec {
  readonly normalizer: unknown;
  readonly pre_tokenizer: unknown;
  readonly post_processor: unknown;
  readonly decoder: unknown;
  readonly model: string;
  readonly added_tokens: string;
  readonly model_options?: Record<string, unknown>;
}
interface Case {
  readonly component: string;
  readonly type: string;
  readonly name: string;
  readonly tokenizer: Spec;
  readonly ids: number[][];
  readonly decoded: (string | null)[];
  readonly type_ids?: number[][];
  readonly pairs: [number[], number[]][];
}
interface Refused {
  readonly component: string;
  readonly name: string;
  readonly tokenizer: Spec;
  readonly python: string;
}
interface Fixture {
  readonly tokenizers: string;
  readonly refused: Refused[];
  readonly texts: string[];
  readonly pairs: [string, string][];
  readonly models: Record<string, Record<string, unknown>>;
  readonly added_tokens: Record<string, unknown[]>;
  readonly cases: Case[];
}
const { texts, pairs, models, added_tokens: added, cases, refused } = fixture as unknown as Fixture;

/** The tokenizer.json of a case, exactly as the generator built it for the Python library. */
function componentTokenizerJson(spec: Spec): Record<string, unknown> {
  const { normalizer, pre_tokenizer, post_processor, decoder } = spec;
  return { version: '1.0', truncation: null, padding: null, added_tokens: added[spec.added_tokens], normalizer, pre_tokenizer, post_processor, decoder, model: { ...models[spec.model], ...spec.model_options } };
}

const exact: string[] = [];

describe('tokenizer.json components against the tokenizers library', () => {
  it('has every case of the fixture, each over every text and pair', () => {
    expect(cases).toHaveLength(103);
    expect(texts).toHaveLength(148);
    expect(pairs).toHaveLength(8);
    for (const c of cases) expect([c.ids.length, c.decoded.length, c.pairs.length]).toEqual([texts.length, texts.length, pairs.length]);
  });

  it.each(cases.map((c) => [`${c.component} ${c.type}: ${c.name}`, c] as const))('%s', (_, c) => {
    const tokenizer = new Tokenizer(componentTokenizerJson(c.tokenizer));
    const wrong: string[] = [];
    texts.forEach((text, i) => {
      const batch = tokenizer.encode([text], { truncation: false });
      const ids = batch.inputIds[0]!;
      if (ids.join() !== c.ids[i]!.join()) wrong.push(`ids of ${JSON.stringify(text)}: ${ids.join(' ')} != ${c.ids[i]!.join(' ')}`);
      if (c.type_ids !== undefined && batch.tokenTypeIds[0]!.join() !== c.type_ids[i]!.join()) wrong.push(`type ids of ${JSON.stringify(text)}`);
      const decoded = tokenizer.decode(c.ids[i]!);
      if (decoded !== (c.decoded[i] ?? text)) wrong.push(`decode of ${JSON.stringify(text)}: ${JSON.stringify(decoded)} != ${JSON.stringify(c.decoded[i] ?? text)}`);
    });
    pairs.forEach(([a, b], j) => {
      const batch = tokenizer.encode([[a, b]], { truncation: false });
      const [ids, types] = c.pairs[j]!;
      if (batch.inputIds[0]!.join() !== ids.join() || batch.tokenTypeIds[0]!.join() !== types.join()) wrong.push(`pair ${JSON.stringify([a, b])}: ${batch.inputIds[0]!.join(' ')} / ${batch.tokenTypeIds[0]!.join('')} != ${ids.join(' ')} / ${types.join('')}`);
    });
    if (wrong.length === 0) exact.push(`${c.component} ${c.type}: ${c.name}`);
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('is reported', () => {
    console.log(`tokenizer components exact (ids, type ids, decode) on all ${texts.length} texts and ${pairs.length} pairs: ${exact.length} / ${cases.length} cases`);
    expect(exact).toHaveLength(cases.length);
  });
});

/** The typed error for each file attnkit refuses (the fixture says what the Python library does with it). */
const REFUSALS: Record<string, string> = {
  'BPE dropout 0.1 (merges sampled at random)': `Tokenizer: 'tokenizer.json model.dropout (BPE)' must be null or 0 (dropout skips merges at random, so the ids of a text cannot be reproduced); received 0.1. Set "dropout": null for inference.`,
  'Precompiled with an empty charsmap': `Tokenizer: 'tokenizer.json normalizer.precompiled_charsmap (Precompiled)' must be a base64 charsmap (the tokenizers library refuses an empty one); received "".`,
  'an unknown normalizer type': `Tokenizer: 'tokenizer.json normalizer.normalizers[1].type' must be one of "BertNormalizer", "NFC", "NFD", "NFKC", "NFKD", "Lowercase", "Strip", "StripAccents", "Replace", "Prepend", "Nmt", "Precompiled", "ByteLevel", "Sequence" (the normalizer types attnkit runs exactly as the tokenizers library); received "Unheard".`,
  'an unknown pre-tokenizer type': `Tokenizer: 'tokenizer.json pre_tokenizer.pretokenizers[1].type' must be one of "BertPreTokenizer", "ByteLevel", "Whitespace", "WhitespaceSplit", "Metaspace", "CharDelimiterSplit", "Split", "Punctuation", "Digits", "UnicodeScripts", "FixedLength", "Sequence" (the pre-tokenizer types attnkit runs exactly as the tokenizers library); received "Unheard".`,
  'an unknown post-processor type': `Tokenizer: 'tokenizer.json post_processor.type' must be one of "BertProcessing", "RobertaProcessing", "TemplateProcessing", "ByteLevel", "Sequence" (the post-processor types attnkit runs exactly as the tokenizers library); received "Unheard".`,
  'an unknown decoder type': `Tokenizer: 'tokenizer.json decoder.decoders[0].type' must be one of "ByteLevel", "WordPiece", "Metaspace", "BPEDecoder", "CTC", "Replace", "Fuse", "Strip", "ByteFallback", "Sequence" (the decoder types attnkit runs exactly as the tokenizers library); received "Unheard".`,
  'Metaspace with a replacement of two characters': `Tokenizer: 'tokenizer.json pre_tokenizer.replacement (Metaspace)' must be one character; received "▁▁".`,
  'Split with an unknown behavior': `Tokenizer: 'tokenizer.json pre_tokenizer.behavior (Split)' must be one of "Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous"; received "Sideways".`,
  'WordPiece with unk_token null': `Tokenizer: 'tokenizer.json model.unk_token (WordPiece)' must be a string; received null.`,
};

describe('tokenizer.json components attnkit refuses by name', () => {
  it('has every refused case of the fixture', () => {
    expect(refused.map((r) => r.name)).toEqual(Object.keys(REFUSALS));
  });

  it.each(refused.map((r) => [r.name, r] as const))('%s: a typed error naming the type and its place', (name, r) => {
    const error = thrown(() => new Tokenizer(componentTokenizerJson(r.tokenizer)));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(REFUSALS[name]);
  });

  it('is a ModelLoadError from loadTokenizer, with the same words', async () => {
    const dropout = refused.find((r) => r.tokenizer.model_options?.['dropout'] === 0.1)!;
    const error = await loadTokenizer({ files: { 'tokenizer.json': JSON.stringify(componentTokenizerJson(dropout.tokenizer)) } }).then(() => undefined, (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect(error?.message).toBe(`loadTokenizer: the tokenizer cannot be built: ${REFUSALS[dropout.name]}`);
  });
});
