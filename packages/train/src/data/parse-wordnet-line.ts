import { InvalidArgumentError, describeValue } from '@attnkit/errors';
import { splitGloss } from './split-gloss.js';
import { WordnetReadError } from './wordnet-read-error.js';
import type { WordnetPos, WordnetSynset } from './wordnet-synset.js';

/** Where a data line comes from, for the messages: the file's path and the 1-based line number. */
export interface WordnetLineSource {
  readonly file: string;
  readonly line: number;
  readonly pos: WordnetPos;
}

const SS_TYPES: Readonly<Record<WordnetPos, string>> = { n: 'n', v: 'v', a: 'as', r: 'r' };

/** `galore(ip)` → `galore`, `domestic_dog` → `domestic dog`. */
function lemmaOf(word: string): string {
  return word.replace(/\((a|p|ip)\)$/, '').replace(/_/g, ' ');
}

/**
 * Parses one line of a WordNet 3.x `data.{noun,verb,adj,adv}` file (`wndb(5WN)`):
 * `synset_offset lex_filenum ss_type w_cnt word lex_id [word lex_id...] p_cnt [ptr...] [frames...] | gloss`,
 * with `w_cnt` and `lex_id` in hex, four fields per pointer and, in `data.verb`, `f_cnt` and
 * `+ f_num w_num` per frame. Every field is checked; a line that does not fit throws
 * {@link WordnetReadError} naming the file, the line, the field, what it must be and what it is.
 * License header lines (starting with two spaces) are the caller's to skip.
 *
 * @example
 * parseWordnetLine('00001740 03 n 01 entity 0 003 ~ 00001930 n 0000 ~ 00002137 n 0000 ~ 04431553 n 0000 | that which is perceived ...  ',
 *   { file: 'data.noun', line: 30, pos: 'n' });
 * // { id: 'n00001740', pos: 'n', lemmas: ['entity'], definition: 'that which is perceived ...', examples: [] }
 */
export function parseWordnetLine(text: string, source: WordnetLineSource): WordnetSynset {
  if (typeof text !== 'string') throw new InvalidArgumentError({ caller: 'parseWordnetLine', argument: 'text', expected: 'a line of a WordNet data file (a string)', received: describeValue(text) });
  if (typeof source !== 'object' || source === null || typeof source.file !== 'string') throw new InvalidArgumentError({ caller: 'parseWordnetLine', argument: 'source', expected: 'where the line is from: { file, line, pos }', received: describeValue(source) });
  if (!Number.isInteger(source.line) || source.line < 1) throw new InvalidArgumentError({ caller: 'parseWordnetLine', argument: 'source.line', expected: 'the 1-based line number (an integer ≥ 1)', received: describeValue(source.line) });
  if (typeof source.pos !== 'string' || !Object.prototype.hasOwnProperty.call(SS_TYPES, source.pos)) throw new InvalidArgumentError({ caller: 'parseWordnetLine', argument: 'source.pos', expected: "the data file's part of speech: 'n', 'v', 'a' or 'r'", received: describeValue(source.pos) });
  const fail = (field: string, expected: string, received: string | undefined): never => {
    const start = text.length > 80 ? `${text.slice(0, 80)}...` : text;
    throw new WordnetReadError(source.file, source.line, `readWordnet: ${source.file} line ${source.line}: '${field}' must be ${expected}; received ${received === undefined ? "nothing (the fields end at ' | ')" : `'${received}'`}. The line starts: "${start}"`);
  };
  const bar = text.indexOf(' | ');
  if (bar < 0) fail('gloss', "the gloss after ' | ' (wndb format: ... | gloss)", 'a line without one');
  const fields = text.slice(0, bar).split(' ').filter((f) => f !== '');
  let at = 0;
  const next = (field: string, pattern: RegExp, expected: string): string => {
    const value = fields[at++];
    return value !== undefined && pattern.test(value) ? value : fail(field, expected, value);
  };

  const offset = next('synset_offset', /^\d{8}$/, 'eight digits (the byte offset)');
  next('lex_filenum', /^\d{2}$/, 'two digits (the lexicographer file)');
  next('ss_type', new RegExp(`^[${SS_TYPES[source.pos]}]$`), `${[...SS_TYPES[source.pos]].map((t) => `'${t}'`).join(' or ')} in this file`);
  const wordCount = Number.parseInt(next('w_cnt', /^[0-9a-f]{2}$/i, 'two hex digits (the number of words)'), 16);
  if (wordCount === 0) fail('w_cnt', 'at least 01 (a synset has words)', '00');
  const lemmas: string[] = [];
  for (let w = 0; w < wordCount; w++) {
    lemmas.push(lemmaOf(next(`word ${w + 1}`, /^\S+$/, `a word (w_cnt says ${wordCount})`)));
    next(`lex_id ${w + 1}`, /^[0-9a-f]$/i, 'one hex digit');
  }
  const pointerCount = Number.parseInt(next('p_cnt', /^\d{3}$/, 'three digits (the number of pointers)'), 10);
  for (let p = 1; p <= pointerCount; p++) {
    next(`pointer ${p} symbol`, /^\S{1,2}$/, 'a pointer symbol');
    next(`pointer ${p} synset_offset`, /^\d{8}$/, 'eight digits');
    next(`pointer ${p} pos`, /^[nvasr]$/, 'n, v, a, s or r');
    next(`pointer ${p} source/target`, /^[0-9a-f]{4}$/i, 'four hex digits');
  }
  if (source.pos === 'v') {
    const frameCount = Number.parseInt(next('f_cnt', /^\d{2}$/, 'two digits (the number of verb frames)'), 10);
    for (let f = 1; f <= frameCount; f++) {
      next(`frame ${f}`, /^\+$/, "'+'");
      next(`frame ${f} f_num`, /^\d{2}$/, 'two digits');
      next(`frame ${f} w_num`, /^[0-9a-f]{2}$/i, 'two hex digits');
    }
  }
  if (at < fields.length) fail('gloss', `' | ' after ${at} fields`, fields[at]);
  const { definition, examples } = splitGloss(text.slice(bar + 3).trim());
  return { id: `${source.pos}${offset}`, pos: source.pos, lemmas, definition, examples };
}
