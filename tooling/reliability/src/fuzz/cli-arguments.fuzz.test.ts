import fc from 'fast-check';
import { describe, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { parseDemoArgs, parseEncodeArgs, type DemoRequest, type EncodeRequest } from '@attnkit/cli';
import { FUZZ_RUNS, FUZZ_TIMEOUT_MS } from '../fuzz-budget.js';
import { isTypedError } from './typed-error.js';

/** Tokens of both command lines, near-misses of them, and arbitrary strings (empty, blank, unicode, option-like). */
const token = fc.oneof(
  { arbitrary: fc.constantFrom('--text', '--input', '--output', '--model', '--backend', '--prompt-name', '--normalize', '--compare', '--json'), weight: 8 },
  { arbitrary: fc.constantFrom('cpu', 'wasm', 'webgl', 'cpu,wasm', 'wasm,,cpu', ' cpu ', ',', 'hello world', 'ids.json', 'out.json', './model'), weight: 6 },
  { arbitrary: fc.constantFrom('--', '-', '-t', '--txt', '--text=', '--text=a', '--normalize=true', '--no-normalize', '--json=false', '--backend=cpu', '--BACKEND', '---text', '--__proto__', '--constructor', '--toString'), weight: 3 },
  { arbitrary: fc.constantFrom('', ' ', '\t', '\n', '\u00A0', '\uD800', '🙂'), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 12 }), weight: 2 },
);
const value = fc.oneof({ arbitrary: fc.constantFrom('cpu', 'wasm', 'hello world', 'ids.json', 'query', 'cpu,wasm'), weight: 4 }, { arbitrary: token, weight: 1 });
/** Option-value pairs of one command (mostly well-formed command lines), now and then with a stray token; or any tokens. */
function commandLine(options: readonly string[], flags: readonly string[]): fc.Arbitrary<string[]> {
  const pairs = fc.array(
    fc.oneof(
      { arbitrary: fc.tuple(fc.constant('--text'), value), weight: 4 },
      { arbitrary: fc.tuple(fc.constantFrom(...options), value), weight: 4 },
      { arbitrary: fc.tuple(fc.constantFrom(...flags)), weight: 2 },
      { arbitrary: fc.tuple(token), weight: 1 },
    ),
    { maxLength: 5 },
  );
  return fc.oneof(fc.array(token, { maxLength: 10 }), pairs.map((groups) => groups.flat()));
}

function nonEmptyTexts(texts: readonly unknown[]): boolean {
  return texts.every((t) => typeof t === 'string' && t.trim() !== '');
}

// `--model ""` parses (both commands): the loader then refuses it with a typed ModelLoadError (exit 2).

/** A request `runEncode` can act on: one backend it knows, texts or ids (not both), a prompt only for texts. */
function wellFormedEncode(r: EncodeRequest, args: readonly string[]): boolean {
  const flags = (name: string) => args.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return (r.backend === 'cpu' || r.backend === 'wasm') && typeof r.model === 'string'
    && Array.isArray(r.texts) && nonEmptyTexts(r.texts) && (r.texts.length > 0) !== (r.input !== undefined)
    && (r.input === undefined || typeof r.input === 'string') && (r.output === undefined || typeof r.output === 'string')
    && (r.promptName === undefined || (typeof r.promptName === 'string' && r.input === undefined)) && typeof r.normalize === 'boolean'
    && (r.texts.length === 0 || flags('text')) && (!r.normalize || flags('normalize'));
}

/** A request `runDemo` can act on: known backends only, non-empty texts. */
function wellFormedDemo(r: DemoRequest): boolean {
  return (r.backend === 'cpu' || r.backend === 'wasm') && typeof r.model === 'string' && Array.isArray(r.texts) && r.texts.length > 0 && nonEmptyTexts(r.texts)
    && Array.isArray(r.compare) && r.compare.every((b) => b === 'cpu' || b === 'wasm') && typeof r.json === 'boolean';
}

/** Parsed, or the typed usage error (an InvalidArgumentError whose message ends with the usage line). */
function parsesOrRejects<R>(parse: (args: readonly string[]) => R, wellFormed: (r: R, args: readonly string[]) => boolean, args: readonly string[]): boolean {
  let request: R;
  try {
    request = parse(args);
  } catch (error) {
    isTypedError(error);
    return error instanceof InvalidArgumentError && / Usage: attnkit /.test(error.message);
  }
  return wellFormed(request, args);
}

describe(`demo command-line fuzzing (fast-check, ${2 * FUZZ_RUNS} cases)`, () => {
  it('attnkit encode: random argv (options, near-misses, unicode, --): a request runEncode can act on, or the typed usage error', () => {
    fc.assert(fc.property(commandLine(['--input', '--output', '--model', '--backend', '--prompt-name'], ['--normalize']), (args) => parsesOrRejects(parseEncodeArgs, wellFormedEncode, args)), { numRuns: FUZZ_RUNS, seed: 91 });
  }, FUZZ_TIMEOUT_MS);

  it('attnkit (the demo): random argv: a request runDemo can act on, or the typed usage error', () => {
    fc.assert(fc.property(commandLine(['--model', '--backend', '--compare'], ['--json']), (args) => parsesOrRejects(parseDemoArgs, wellFormedDemo, args)), { numRuns: FUZZ_RUNS, seed: 92 });
  }, FUZZ_TIMEOUT_MS);
});
