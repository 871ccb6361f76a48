import { describe, expect, it } from 'vitest';
import { splitGloss } from './split-gloss.js';

// Glosses as they stand in WordNet 3.1's data files (after ' | ', trailing spaces removed).
describe('splitGloss', () => {
  it('splits a definition from several examples (data.adj: able)', () => {
    expect(splitGloss('(usually followed by `to\') having the necessary means or skill or know-how or authority to do something; "able to swim"; "she was able to program her computer"; "we were at last able to buy a car"; "able to get a grant for the project"')).toEqual({
      definition: '(usually followed by `to\') having the necessary means or skill or know-how or authority to do something',
      examples: ['able to swim', 'she was able to program her computer', 'we were at last able to buy a car', 'able to get a grant for the project'],
    });
  });

  it('keeps semicolons of the definition and inside examples, and drops attributions (data.noun: dog, vengeance)', () => {
    expect(splitGloss('a member of the genus Canis (probably descended from the common wolf) that has been domesticated by man since prehistoric times; occurs in many breeds; "the dog barked all night"')).toEqual({
      definition: 'a member of the genus Canis (probably descended from the common wolf) that has been domesticated by man since prehistoric times; occurs in many breeds',
      examples: ['the dog barked all night'],
    });
    expect(splitGloss('the act of taking revenge (harming someone in retaliation for something harmful that they have done) especially in the next life; "Vengeance is mine; I will repay, saith the Lord"--Romans 12:19; "For vengeance I would do nothing. This nation is too great to look for mere revenge"--James Garfield; "he swore vengeance on the man who betrayed him"; "the swiftness of divine retribution"')).toEqual({
      definition: 'the act of taking revenge (harming someone in retaliation for something harmful that they have done) especially in the next life',
      examples: ['Vengeance is mine; I will repay, saith the Lord', 'For vengeance I would do nothing. This nation is too great to look for mere revenge', 'he swore vengeance on the man who betrayed him', 'the swiftness of divine retribution'],
    });
  });

  it('keeps a usage note after the examples in the definition (data.adj: circumlocutious)', () => {
    expect(splitGloss('roundabout and unnecessarily wordy; "had a preference for circumlocutious (or circumlocutory) rather than forthright expression"; "A periphrastic study in a worn-out poetical fashion,/ Leaving one still with the intolerable wrestle/ With words and meanings."-T.S.Eliot; (`ambagious\' is archaic)')).toEqual({
      definition: 'roundabout and unnecessarily wordy; (`ambagious\' is archaic)',
      examples: ['had a preference for circumlocutious (or circumlocutory) rather than forthright expression', 'A periphrastic study in a worn-out poetical fashion,/ Leaving one still with the intolerable wrestle/ With words and meanings.'],
    });
  });

  it('reads `definition: "example"` as both, and keeps quotes that belong to the definition (data.noun: substitution, carrot)', () => {
    expect(splitGloss('the act of putting one thing or person in the place of another: "he sent Smith in for Jones but the substitution came too late to help"')).toEqual({
      definition: 'the act of putting one thing or person in the place of another',
      examples: ['he sent Smith in for Jones but the substitution came too late to help'],
    });
    expect(splitGloss('promise of reward as in "carrot and stick"; "used the carrot of subsidized housing for the workers to get their vote"')).toEqual({
      definition: 'promise of reward as in "carrot and stick"',
      examples: ['used the carrot of subsidized housing for the workers to get their vote'],
    });
  });

  it('takes two quoted examples in one part, and ignores a trailing semicolon (data.noun: life; data.verb: repress)', () => {
    expect(splitGloss('the course of existence of an individual; the actions and events that occur in living; "he hoped for a new life in Australia"; "he wanted to live his own life without interference from others"; "get a life!" "he is trying to rebuild his life"')).toEqual({
      definition: 'the course of existence of an individual; the actions and events that occur in living',
      examples: ['he hoped for a new life in Australia', 'he wanted to live his own life without interference from others', 'get a life!', 'he is trying to rebuild his life'],
    });
    expect(splitGloss('block the action of; "the process of repressing gene transcription";')).toEqual({ definition: 'block the action of', examples: ['the process of repressing gene transcription'] });
    expect(splitGloss('an entity that has physical existence')).toEqual({ definition: 'an entity that has physical existence', examples: [] }); // data.noun: physical entity
  });
});
