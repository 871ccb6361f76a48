import { zeros, type Tensor } from '@tensorflow/tfjs-core';
import {
  AttnkitError, InvalidArgumentError, ResourceLimitError, UseAfterDisposeError, assertFinite, boundMessage, broadcastShapes, checkAbortSignal, checkBoolean, checkFunction, checkInteger, checkObject,
  checkOptionKeys, checkTensor, closestName, describeValue, formatBytes, formatShape, isTensorLike, messageText, messageTexts, nodeBuiltin, summarizeList,
} from '@attnkit/errors';
import type { CatalogueCase } from './catalogue-case.js';
import { acceptedEverywhere, built, REPORTS } from './kernels-positions-cases.js';
import { variants, type ValidCall } from './positions-cases.js';

const NAMES = 'names and text for the message only (InvalidArgumentError makes every part text), read only when the value is refused';
const NEVER_THROWS = 'it describes any value and never throws (documented): that is what messages print';
/** The call must return text (a message part), whatever it was given. */
const text = (value: unknown) => { if (typeof value !== 'string') throw new Error(`returned ${typeof value}, not text`); };

const VALID_CALLS: readonly ValidCall[] = [
  // the errors
  { name: 'errors.AttnkitError', args: () => ['ATTNKIT_X', 'a message', { cause: 1 }], call: ([c, m, o]) => built(new AttnkitError(c as string, m as string, o as never)), optional: [2],
    options: { index: 2, keys: ['cause'] }, accepted: acceptedEverywhere(REPORTS, [0, 1, 2], ['cause']) },
  { name: 'errors.InvalidArgumentError', args: () => [{ caller: 'f', argument: 'x', expected: 'a number', received: 'null', hint: 'h' }], call: ([d]) => built(new InvalidArgumentError(d as never)),
    options: { index: 0, keys: ['caller', 'argument', 'expected', 'received', 'hint'] }, accepted: acceptedEverywhere(REPORTS, [0], ['caller', 'argument', 'expected', 'received', 'hint']) },
  { name: 'errors.UseAfterDisposeError', args: () => ['Linear.forward'], call: ([c]) => built(new UseAfterDisposeError(c as string)), accepted: acceptedEverywhere(REPORTS, [0]) },
  { name: 'errors.ResourceLimitError', args: () => [{ caller: 'f', what: 'the scores', backend: 'cpu', bytes: 2 ** 31, limit: 2 ** 30, rule: 'a rule', hint: 'h' }], call: ([d]) => built(new ResourceLimitError(d as never)),
    options: { index: 0, keys: ['caller', 'what', 'backend', 'bytes', 'limit', 'rule', 'hint'] }, accepted: acceptedEverywhere(REPORTS, [0], ['caller', 'what', 'backend', 'bytes', 'limit', 'rule', 'hint']) },
  // message parts
  { name: 'errors.messageText', args: () => ['f'], call: ([v]) => text(messageText(v)), accepted: acceptedEverywhere(NEVER_THROWS, [0]) },
  { name: 'errors.messageTexts', args: () => [['f']], call: ([v]) => { if (!messageTexts(v).every((t) => typeof t === 'string')) throw new Error('not text'); }, accepted: acceptedEverywhere('any list gives its items as text, anything else no items (documented: never throws)', [0]) },
  { name: 'errors.describeValue', args: () => [1], call: ([v]) => text(describeValue(v)), accepted: acceptedEverywhere(NEVER_THROWS, [0]) },
  { name: 'errors.formatShape', args: () => [[2, 3]], call: ([s]) => text(formatShape(s as number[])), accepted: acceptedEverywhere('for messages: a shape that is no list is described, never thrown on (documented)', [0]) },
  { name: 'errors.isTensorLike', args: () => [zeros([2])], call: ([v]) => { if (typeof isTensorLike(v) !== 'boolean') throw new Error('no boolean'); }, accepted: acceptedEverywhere('a type guard: answers true or false for any value', [0]) },
  { name: 'errors.boundMessage', args: () => ['a message'], call: ([m]) => text(boundMessage(m as string)), accepted: acceptedEverywhere('a message that is no string is described (documented: every AttnkitError applies it, so it never throws)', [0]) },
  { name: 'errors.summarizeList', args: () => [['a', 'b'], 1, '; '], call: ([i, n, s]) => text(summarizeList(i as never, n as number, s as string)), optional: [1, 2],
    accepted: acceptedEverywhere('a message helper (documented: never throws): anything but a list reads as no items, a count that is no positive integer as 12, a separator that is no string as ", "', [0, 1, 2]) },
  { name: 'errors.formatBytes', args: () => [2 ** 20], call: ([b]) => text(formatBytes(b as number)) },
  { name: 'errors.closestName', args: () => ['txt', ['model', 'text']], call: ([g, n]) => closestName(g as string, n as string[]), accepted: { '0:"x"': 'a name: none of the names is close to "x" (undefined)' } },
  { name: 'errors.nodeBuiltin', args: () => ['node:path'], call: ([id]) => nodeBuiltin(id as never) },
  // the checks
  { name: 'errors.checkTensor', args: () => [zeros([2, 3]), { caller: 'f', argument: 'x', dtype: 'float32', rank: 2, shape: '[B, T]', dtypeHint: 'h' }], call: ([v, r]) => checkTensor(v, r as never),
    options: { index: 1, keys: ['caller', 'argument', 'dtype', 'rank', 'shape', 'dtypeHint'] }, accepted: acceptedEverywhere(NAMES, [], ['caller', 'argument', 'shape', 'dtypeHint']) },
  { name: 'errors.checkInteger', args: () => [3, { caller: 'f', argument: 'n', min: 0, max: 10 }], call: ([v, o]) => checkInteger(v, o as never),
    options: { index: 1, keys: ['caller', 'argument', 'min', 'max'] }, accepted: { ...acceptedEverywhere(NAMES, [], ['caller', 'argument']), 'min:-1': 'a bound: 3 ≥ -1' } },
  { name: 'errors.checkObject', args: () => [{ a: 1 }, { caller: 'f', argument: 'options', expected: 'an options object' }], call: ([v, d]) => checkObject(v, d as never),
    options: { index: 1, keys: ['caller', 'argument', 'expected'] }, accepted: { ...acceptedEverywhere(NAMES, [], ['caller', 'argument', 'expected']), '0:{}': 'a plain object is what it checks for' } },
  { name: 'errors.checkOptionKeys', args: () => [{ mask: 1 }, ['mask', 'scale'], 'f', 'options'], call: ([o, a, c, n]) => checkOptionKeys(o, a as string[], c as string, n as string), optional: [3],
    accepted: { ...acceptedEverywhere(NAMES, [2, 3]), '0:{}': 'an options object without keys has no unknown key' } },
  { name: 'errors.checkBoolean', args: () => [true, { caller: 'f', argument: 'training', fallback: false }], call: ([v, d]) => checkBoolean(v, d as never), optional: [0],
    options: { index: 1, keys: ['caller', 'argument', 'fallback'] }, accepted: acceptedEverywhere(NAMES, [], ['caller', 'argument']) },
  { name: 'errors.checkFunction', args: () => [() => 1, { caller: 'f', argument: 'onProgress', expected: 'a function' }], call: ([v, d]) => checkFunction(v, d as never), optional: [0],
    options: { index: 1, keys: ['caller', 'argument', 'expected'] }, accepted: acceptedEverywhere(NAMES, [], ['caller', 'argument', 'expected']) },
  { name: 'errors.checkAbortSignal', args: () => [new AbortController().signal, { caller: 'f', argument: 'signal' }], call: ([v, d]) => checkAbortSignal(v, d as never), optional: [0],
    options: { index: 1, keys: ['caller', 'argument'] }, accepted: acceptedEverywhere(NAMES, [], ['caller', 'argument']) },
  { name: 'errors.broadcastShapes', args: () => [[2, 1, 5], [1, 3, 5], 'f', 'masks'], call: ([a, b, c, n]) => broadcastShapes(a as number[], b as number[], c as string, n as string), accepted: acceptedEverywhere(NAMES, [2, 3]) },
  { name: 'errors.assertFinite', args: () => [zeros([2, 3]), 'f', 'x'], call: ([x, c, n]) => assertFinite(x as Tensor, c as string, n as string),
    accepted: { ...acceptedEverywhere(NAMES, [1, 2]), '0:a rank-0 float tensor': 'a float32 tensor of any rank whose values are finite passes' } },
];

/** The errors package's exports no table can call with a hostile value. */
export const positionsExempt: Record<string, string> = {
  'errors.detectEnvironment': 'takes no arguments: there is no argument position or option to give a hostile value',
};

/** The errors package: its error classes (built from anything: reporting never throws), message helpers and input checks, every argument position and option key; Node only, on cpu. */
export const errorsPositionsCases: CatalogueCase[] = VALID_CALLS.flatMap(variants);
