import { PageInputError } from './page-input-error.js';

/** A training pair for the ranking loss: a sentence and its paraphrase. */
export interface SentencePair {
  readonly anchor: string;
  readonly positive: string;
}

const SEPARATOR = /\t| \| /;

/**
 * Reads paraphrase pairs from text: one pair a line, its two sentences separated by a tab or
 * `" | "`; blank lines are skipped. A line that is not two non-empty sentences is a
 * `PageInputError` naming the line, and fewer than two pairs is one too (the ranking loss
 * contrasts each pair with the others in its batch).
 *
 * @example
 * parsePairs('The cat sat on the mat. | A cat was sitting on a mat.\nIt rains. | Rain is falling.');
 * // [{ anchor: 'The cat sat on the mat.', positive: 'A cat was sitting on a mat.' }, { anchor: 'It rains.', positive: 'Rain is falling.' }]
 */
export function parsePairs(text: string): SentencePair[] {
  const pairs: SentencePair[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    const quoted = `"${line.length > 60 ? `${line.slice(0, 59)}…` : line}"`;
    const parts = ` ${line} `.split(SEPARATOR).map((part) => part.trim()); // padded: "a |" is a pair with an empty side
    if (parts.length !== 2) {
      const problem = parts.length === 1 ? 'has no separator' : `has ${parts.length - 1} separators`;
      throw new PageInputError(`Pairs, line ${i + 1}: ${quoted} ${problem}. Write one pair a line: two sentences separated by a tab or " | ".`, { field: 'pairs', line: i + 1 });
    }
    const [anchor, positive] = parts as [string, string];
    if (anchor === '' || positive === '') throw new PageInputError(`Pairs, line ${i + 1}: ${quoted} has an empty side. Write one pair a line: two sentences separated by a tab or " | ".`, { field: 'pairs', line: i + 1 });
    pairs.push({ anchor, positive });
  });
  if (pairs.length < 2) throw new PageInputError(`Pairs: found ${pairs.length} pair${pairs.length === 1 ? '' : 's'}; give at least 2, one a line (each pair is contrasted with the others).`, { field: 'pairs' });
  return pairs;
}
