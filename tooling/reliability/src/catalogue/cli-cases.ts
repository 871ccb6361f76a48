import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEncodeArgs, runEncode } from '@attnkit/cli';
import { rejects, type CatalogueCase } from './catalogue-case.js';

const E = 'InvalidArgumentError';
const dir = mkdtempSync(join(tmpdir(), 'attnkit-cli-catalogue-'));
writeFileSync(join(dir, 'bad.json'), '{"input_ids": ');
execFileSync('mkfifo', [join(dir, 'fifo')]);

/** The `attnkit encode` command line. */
export const cliCases: CatalogueCase[] = [
  rejects('cli', '--backend webgl (no WebGL in Node)', E, /^attnkit encode: '--backend' must be cpu or wasm \(webgl needs a browser: use the web page\); received webgl\./, () => parseEncodeArgs(['--text', 'a', '--backend', 'webgl'])),
  rejects('cli', 'no input at all', E, /^attnkit encode: '--text \/ --input' must be one or more --text, or one --input ids\.json \(not both\); received neither\./, () => parseEncodeArgs([])),
  rejects('cli', 'empty --text', E, /^attnkit encode: '--text' must be non-empty text; received ""\./, () => parseEncodeArgs(['--text', ''])),
  rejects('cli', 'unknown option', E, /^attnkit encode: 'arguments' must be the options of attnkit encode; received Unknown option '--txt'/, () => parseEncodeArgs(['--txt', 'a'])),
  rejects('cli', 'model folder that does not exist', E, /^attnkit encode: '--model' must be a model folder, a Hugging Face id \('org\/name'\) or an http\(s\) URL; received \/nonexistent\/model, which does not exist\./, () => runEncode(parseEncodeArgs(['--model', '/nonexistent/model', '--text', 'a', '--backend', 'cpu']))),
  rejects('cli', 'malformed ids.json', E, /^attnkit encode: '--input' must be a readable JSON file with input_ids/, () => runEncode(parseEncodeArgs(['--input', join(dir, 'bad.json'), '--backend', 'cpu']))),
  rejects('cli', '--output into a folder that does not exist', E, /^attnkit encode: '--output' must be a file path in an existing, writable folder; received ".*no-such-folder\/out\.json" \(ENOENT\)\.$/, () => runEncode(parseEncodeArgs(['--text', 'a', '--backend', 'cpu', '--output', join(dir, 'no-such-folder', 'out.json')]))),
  rejects('cli', '--output naming a folder', E, /^attnkit encode: '--output' must be a file path in an existing, writable folder; received ".*attnkit-cli-catalogue-[^"]*" \((EISDIR|ENOTEMPTY|EEXIST)\)\.$/, () => runEncode(parseEncodeArgs(['--text', 'a', '--backend', 'cpu', '--output', dir]))),
  rejects('cli', '--output naming a pipe (replaced by a file before)', E, /^attnkit encode: '--output' must be a file path in an existing, writable folder; received ".*fifo" \(a device, pipe or socket, not a regular file; leave out --output to print to stdout\)\.$/, () => runEncode(parseEncodeArgs(['--text', 'a', '--backend', 'cpu', '--output', join(dir, 'fifo')]))),
];
