import type { IdsInput } from '../encoder/check-encoder-inputs.js';

/** What `generate` needs of a tokenizer (`@attnkit/tokenizers`' `Tokenizer` has it): texts to ids, ids to text. */
export interface GenerationTokenizer {
  encode(texts: string[], options: { readonly padding: false; readonly truncation: false }): { readonly inputIds: readonly (readonly number[])[] };
  decode(ids: readonly number[]): string;
  /** Whether `id` is a byte piece decoded with its neighbours (`Tokenizer.isByteToken`): the text stream holds such ids until their run ends. */
  isByteToken?(id: number): boolean;
}

/** A prompt, or a batch of prompts: token ids (`[T]` or ragged `[B][T_b]`; or a left-padded `[B, T]` with its `attentionMask`), or texts with `options.tokenizer`. */
export type GenerateInput = string | readonly string[] | readonly number[] | readonly (readonly number[])[] | { readonly inputIds: IdsInput; readonly attentionMask?: IdsInput };

/** One generated token, as `onToken` is told it. */
export interface GeneratedToken {
  /** The row of the batch (0 for a single prompt). */
  readonly row: number;
  /** The token id. */
  readonly token: number;
  /** Its place among the row's new tokens (0, 1, ...). */
  readonly index: number;
  /** The text this token completes (with a tokenizer): `''` while a character is still incomplete (byte-level pieces held back until valid UTF-8) and for special tokens. */
  readonly text: string;
}

/** Why a row stopped: an end-of-sequence token, a stop string, or `maxNewTokens`. */
export type FinishReason = 'eos' | 'stop' | 'length';

/** What `generate` returns. */
export interface GenerationResult {
  /** The new token ids of each row (the end-of-sequence token included when it ended the row). */
  readonly tokens: number[][];
  /** The new text of each row (with a tokenizer; special tokens left out, stop strings kept, as transformers). */
  readonly texts: string[] | undefined;
  readonly finishReasons: FinishReason[];
}

/** A piece of text `stream` yields: valid UTF-8 only. */
export interface GeneratedText {
  readonly row: number;
  readonly text: string;
}

/** Options of `generate` and `stream`; what is not given comes from the model's `generationConfig` (generation_config.json), then from transformers' defaults. */
export interface GenerateOptions {
  /** New tokens per row, at least 1 (default: generation_config.json's `max_new_tokens` or `max_length` less the prompt, else 20). */
  readonly maxNewTokens?: number;
  /** The most positions (padded prompt and new tokens) the KV cache may hold; a prompt or `maxNewTokens` past it is a typed error. Default `maxPositionEmbeddings`. */
  readonly maxLength?: number;
  /** Sample instead of greedy decoding (default `do_sample`, else false). */
  readonly doSample?: boolean;
  /** > 0 (sampling; default 1). */
  readonly temperature?: number;
  /** Keep the k most likely tokens, 0 = all (sampling; default 50, as transformers). */
  readonly topK?: number;
  /** In (0, 1]: keep the most likely tokens up to this probability (sampling; default 1). */
  readonly topP?: number;
  /** In [0, 1]: drop tokens less likely than this times the most likely (sampling; default 0). */
  readonly minP?: number;
  /** > 0; tokens already in the row are made less likely by this factor (greedy and sampling; default 1). */
  readonly repetitionPenalty?: number;
  /** The same seed gives the same tokens (on one backend: other backends round logits differently). Default: a random seed. */
  readonly seed?: number;
  /** Stop a row once its new text contains one of these (needs `tokenizer`). */
  readonly stop?: string | readonly string[];
  /** Stop a row after one of these ids; `null`: none (fixed length). Default generation_config.json's `eos_token_id`. */
  readonly eosTokenId?: number | readonly number[] | null;
  /** The id left padding uses (never attended to). Default `pad_token_id`, else the first end-of-sequence id. */
  readonly padTokenId?: number;
  /** Turns text prompts into ids and new ids into text (`loadTokenizer` of `@attnkit/tokenizers`). */
  readonly tokenizer?: GenerationTokenizer;
  /** Called for each new token of each row, in order. */
  readonly onToken?: (token: GeneratedToken) => void;
  /** Stops generation: the call rejects with the signal's reason, leaving no tensor behind. */
  readonly signal?: AbortSignal;
}
