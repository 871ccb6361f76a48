import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatFlag, type Refuse } from './cli-option.js';
import { pathOption, repeatedOption, switchOption, valueOption, wholeNumberOption } from './option-kinds.js';

/** A refusal as a value, so a test can compare what the option said. */
const refuse: Refuse = (expected, received) => {
  throw new Error(`${expected}; received ${received}`);
};

describe('switchOption', () => {
  it('is true when given, false when not; help shows it without a value', () => {
    const json = switchOption({ name: 'json', help: 'print JSON', default: 'off' });
    expect([json.read(true, refuse), json.read(undefined, refuse)]).toEqual([true, false]);
    expect([formatFlag(json), json.placeholder, json.multiple, json.default]).toEqual(['--json', undefined, false, 'off']);
  });
});

describe('valueOption', () => {
  it('passes the text (undefined when absent) to parse, with the refusal', () => {
    const mode = valueOption({ name: 'mode', placeholder: 'a|b', help: 'a or b', parse: (value = 'a', no) => (value === 'a' || value === 'b' ? value : no('a or b', JSON.stringify(value))) });
    expect([mode.read('b', refuse), mode.read(undefined, refuse)]).toEqual(['b', 'a']);
    expect(() => mode.read('c', refuse)).toThrow('a or b; received "c"');
    expect(formatFlag(mode)).toBe('--mode a|b');
  });
});

describe('repeatedOption', () => {
  it('passes every value in order, and [] when absent', () => {
    const seen: (readonly string[])[] = [];
    const text = repeatedOption({ name: 'text', placeholder: '"..."', help: 'a text', parse: (values) => (seen.push(values), values.length) });
    expect([text.read(['a', 'b', 'a'], refuse), text.read(undefined, refuse)]).toEqual([3, 0]);
    expect(seen).toEqual([['a', 'b', 'a'], []]);
    expect(text.multiple).toBe(true);
  });
});

describe('pathOption', () => {
  it('resolves a relative path against the working directory, keeps URLs, and is undefined when absent', () => {
    const output = pathOption({ name: 'output', placeholder: 'out.json', help: 'where' });
    expect([output.read('out.json', refuse), output.read('https://example.com/m', refuse), output.read(undefined, refuse)]).toEqual([resolve('out.json'), 'https://example.com/m', undefined]);
  });
});

describe('wholeNumberOption', () => {
  const runs = wholeNumberOption({ name: 'runs', help: 'warm runs', min: 1, max: 1000, fallback: 5 });
  const epochs = wholeNumberOption({ name: 'epochs', help: 'passes', default: '1', min: 0, max: 10 });

  it('reads decimal digits within the bounds; the fallback (help shows it) or undefined when absent', () => {
    expect([runs.read('1', refuse), runs.read('1000', refuse), runs.read('007', refuse), runs.read(undefined, refuse)]).toEqual([1, 1000, 7, 5]);
    expect([epochs.read('0', refuse), epochs.read(undefined, refuse)]).toEqual([0, undefined]);
    expect([formatFlag(runs), runs.default, epochs.default]).toEqual(['--runs N', '5', '1']);
  });

  it.each(['0', '1001', '-3', '+3', '1e3', '2.0', ' 5', '0x10', '', 'many', '9'.repeat(400)])('refuses %j, naming the bounds', (text) => {
    expect(() => runs.read(text, refuse)).toThrow(`a whole number from 1 to 1000; received ${JSON.stringify(text)}`);
  });
});
