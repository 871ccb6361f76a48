import { InvalidArgumentError, describeValue } from '@attnkit/errors';
/** A WordNet gloss taken apart: the definition and the example sentences. */
export interface SplitGloss {
  readonly definition: string;
  readonly examples: readonly string[];
}

/** The `;`-separated parts of a gloss, splitting only outside double quotes (examples hold semicolons). */
function segments(gloss: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < gloss.length; i++) {
    const c = gloss[i];
    if (c === '"') quoted = !quoted;
    else if (c === ';' && !quoted) {
      parts.push(gloss.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(gloss.slice(start).trim());
  return parts.filter((part) => part !== '');
}

/** The contents of every `"..."` in `text`, trimmed, empty ones left out. */
function quotedSpans(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"/g)].map((m) => (m[1] as string).trim()).filter((span) => span !== '');
}

/**
 * Splits a WordNet gloss (`definition; "example one"; "example two"`) into its definition and
 * examples. Parts are split at `;` outside double quotes (definitions and examples may hold
 * semicolons). A part that starts with `"` holds examples: each quoted span is one, and the text
 * after it (an attribution such as `- Shakespeare` or `(Matthew 7:12)`) is dropped. A part
 * `text: "example"` is definition text and an example. Every other part is definition text, quotes
 * kept (`as in "carrot and stick"`); the definition is those parts joined by `; `, in order, so a
 * usage note after the examples (`` (`alright' is a nonstandard variant) ``) stays in it.
 *
 * @example
 * splitGloss('a member of the genus Canis; "the dog barked all night"');
 * // { definition: 'a member of the genus Canis', examples: ['the dog barked all night'] }
 */
export function splitGloss(gloss: string): SplitGloss {
  if (typeof gloss !== 'string') throw new InvalidArgumentError({ caller: 'splitGloss', argument: 'gloss', expected: 'a WordNet gloss (a string)', received: describeValue(gloss) });
  const definition: string[] = [];
  const examples: string[] = [];
  for (const part of segments(gloss)) {
    if (part.startsWith('"')) {
      examples.push(...quotedSpans(part));
      continue;
    }
    const quote = part.indexOf('"');
    const before = quote < 0 ? '' : part.slice(0, quote).trimEnd();
    if (before.endsWith(':')) {
      // `the act of substituting: "he sent Smith in for Jones"`
      definition.push(before.slice(0, -1).trimEnd());
      examples.push(...quotedSpans(part.slice(quote)));
    } else {
      definition.push(part);
    }
  }
  return { definition: definition.filter((d) => d !== '').join('; '), examples };
}
