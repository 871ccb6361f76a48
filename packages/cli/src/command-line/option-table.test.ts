import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { embeddedModelFolder } from '../embedded-model.js';
import { formatFlag, type Refuse } from './cli-option.js';
import { OPTIONS } from './option-table.js';

const refuse: Refuse = (expected, received) => {
  throw new Error(`${expected}; received ${received}`);
};

describe('OPTIONS', () => {
  it('--backend cpu|wasm: wasm by default; anything else refused with where webgl runs', () => {
    expect([OPTIONS.backend.read(undefined, refuse), OPTIONS.backend.read('cpu', refuse), formatFlag(OPTIONS.backend)]).toEqual(['wasm', 'cpu', '--backend cpu|wasm']);
    expect(() => OPTIONS.backend.read('webgl', refuse)).toThrow('cpu or wasm (webgl needs a browser: use the web page); received webgl');
    expect(() => OPTIONS.backend.read('CPU', refuse)).toThrow('received CPU');
  });

  it('--model DIR: the embedded model by default, a path from where the command runs, a URL as it is', () => {
    expect([OPTIONS.model.read(undefined, refuse), OPTIONS.model.read('m', refuse), OPTIONS.model.read('https://h/m', refuse)]).toEqual([embeddedModelFolder(), resolve('m'), 'https://h/m']);
  });

  it('--text "...": repeatable, every text kept, none blank', () => {
    expect([OPTIONS.text.multiple, OPTIONS.text.read(['a', 'a'], refuse), OPTIONS.text.read(undefined, refuse)]).toEqual([true, ['a', 'a'], []]);
    expect(() => OPTIONS.text.read(['a', ' \t'], refuse)).toThrow('non-empty text; received ""');
  });

  it('--prompt-name, --normalize, --overwrite, -h/--help as help writes them', () => {
    expect([OPTIONS.promptName, OPTIONS.normalize, OPTIONS.overwrite, OPTIONS.help].map(formatFlag)).toEqual(['--prompt-name NAME', '--normalize', '--overwrite', '-h, --help']);
    expect([OPTIONS.promptName.read('query', refuse), OPTIONS.normalize.read(true, refuse), OPTIONS.overwrite.read(undefined, refuse)]).toEqual(['query', true, false]);
  });

  it('--json says what it prints and what is printed without it', () => {
    const json = OPTIONS.json('the results', 'a table');
    expect([formatFlag(json), json.help, json.default, json.read(true, refuse)]).toEqual(['--json', 'print the results as JSON on stdout', 'a table', true]);
  });
});
