/** A special token named in tokenizer_config.json: a string or an `AddedToken` object with `content`. */
function tokenText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && typeof (value as { content?: unknown }).content === 'string') return (value as { content: string }).content;
  return undefined;
}

/**
 * The special tokens a chat template sees as variables, as transformers 5 gives them
 * (`special_tokens_map` plus the named model-specific tokens): every `*_token` key of
 * tokenizer_config.json (`bos_token`, `eos_token`, `pad_token`, `image_token`, ...) whose value is a
 * string or an `AddedToken` object (`{ content }`), and the named entries of an
 * `extra_special_tokens` object. A `null` token is left out (the template sees it undefined).
 *
 * @example
 * templateSpecialTokens({ bos_token: { content: '<s>' }, eos_token: '</s>', pad_token: null }); // { bos_token: '<s>', eos_token: '</s>' }
 */
export function templateSpecialTokens(tokenizerConfig: Readonly<Record<string, unknown>>): Record<string, string> {
  const extra = tokenizerConfig['extra_special_tokens'];
  const named = typeof extra === 'object' && extra !== null && !Array.isArray(extra) ? Object.entries(extra) : [];
  const tokens = [...Object.entries(tokenizerConfig).filter(([key]) => key.endsWith('_token')), ...named].map(([key, value]) => [key, tokenText(value)] as const);
  return Object.fromEntries(tokens.filter((entry): entry is readonly [string, string] => entry[1] !== undefined)); // own keys only, whatever their names
}
