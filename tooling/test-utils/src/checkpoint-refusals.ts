import { memory, zeros, type Tensor } from '@tensorflow/tfjs-core';

/** What building a module from one hostile checkpoint did. */
export interface CheckpointRefusal {
  /** The problem planted in the checkpoint, e.g. `'a misspelled key'`. */
  readonly problem: string;
  /** The class name of what was thrown; `'none'` when the module was built. */
  readonly error: string;
  /** The keys the error names, sorted: a `StateDictError`'s `missingKeys`, `unexpectedKeys` and `mismatchedKeys` (empty for another error). */
  readonly keys: { readonly missing: readonly string[]; readonly unexpected: readonly string[]; readonly mismatched: readonly string[] };
  /** Tensors left behind by the construction (the checkpoint's own tensors are disposed). */
  readonly tensorsLeft: number;
}

/** A planted value: a tensor of this shape, or something that is not a tensor. */
type Planted = readonly number[] | 'not a tensor';

/** `weight` → `weigth`: the last two letters swapped. */
const misspelled = (key: string) => `${key.slice(0, -2)}${key.slice(-1)}${key.slice(-2, -1)}`;
const sorted = (keys: unknown) => (Array.isArray(keys) ? keys.map((k) => (typeof k === 'string' ? k : (k as { key: string }).key)).sort() : []);

/** The hostile variants of the checkpoint `shapes`, each as key → planted value. */
function variants(shapes: Readonly<Record<string, readonly number[]>>, disabled: Readonly<Record<string, readonly number[]>>): Array<[string, Map<string, Planted>]> {
  const keys = Object.keys(shapes);
  const [first = '', second] = keys;
  const last = keys[keys.length - 1] ?? '';
  const fits = () => new Map<string, Planted>(Object.entries(shapes));
  const edit = (change: (m: Map<string, Planted>) => void) => { const m = fits(); change(m); return m; };
  const allAtOnce = edit((m) => {
    m.set(first, shapes[first]!.map((d) => d + 1));
    if (keys.length > 1) m.delete(last);
    if (second !== undefined && second !== last) { m.delete(second); m.set(misspelled(second), shapes[second]!); }
    m.set('unused.weight', [1]);
    for (const [key, shape] of Object.entries(disabled)) m.set(key, shape);
  });
  return [
    ['a misspelled key', edit((m) => { m.delete(first); m.set(misspelled(first), shapes[first]!); })],
    ['an extra key nothing uses', edit((m) => m.set('unused.weight', [1]))],
    ['a missing key', edit((m) => m.delete(last))],
    ['a mis-shaped tensor', edit((m) => m.set(first, shapes[first]!.map((d) => d + 1)))],
    ['a value that is not a tensor', edit((m) => m.set(first, 'not a tensor'))],
    ...Object.entries(disabled).map(([key, shape]): [string, Map<string, Planted>] => [`a key its config turns off (${key})`, edit((m) => m.set(key, shape))]),
    ['all of these at once', allAtOnce],
  ];
}

/**
 * Builds a module from hostile variants of a checkpoint that fits it (`shapes`: every key its
 * config gives it, with the shape): a misspelled key, an extra key nothing uses, a missing key, a
 * mis-shaped tensor, a value that is not a tensor, each `disabled` key (a parameter the config turns
 * off, e.g. a bias with `bias: false`), and all of these at once. Returns what each construction
 * threw and left behind (`actual`) beside what a strict checkpoint loader gives (`expected`: one
 * `StateDictError` naming every problem, no tensor left), for one `toEqual`.
 *
 * @example
 * const { actual, expected } = checkpointRefusals((c) => new HeadProjection({ inputDim: 4, numHeads: 2, headDim: 3, bias: false }, c), { 'linear.weight': [6, 4] }, { 'linear.bias': [6] });
 * expect(actual).toEqual(expected);
 */
export function checkpointRefusals(
  build: (checkpoint: Map<string, Tensor>) => { dispose(): void },
  shapes: Readonly<Record<string, readonly number[]>>,
  disabled: Readonly<Record<string, readonly number[]>> = {},
): { actual: CheckpointRefusal[]; expected: CheckpointRefusal[] } {
  const actual: CheckpointRefusal[] = [];
  const expected: CheckpointRefusal[] = [];
  for (const [problem, planted] of variants(shapes, disabled)) {
    const before = memory().numTensors;
    const checkpoint = new Map([...planted].map(([key, value]) => [key, value === 'not a tensor' ? [1, 2, 3] : zeros([...value])]));
    let error: unknown;
    try {
      build(checkpoint as Map<string, Tensor>).dispose();
    } catch (thrown) {
      error = thrown;
    }
    checkpoint.forEach((value) => (value as Tensor).dispose?.());
    const fields = (error ?? {}) as Record<string, unknown>;
    const keys = { missing: sorted(fields['missingKeys']), unexpected: sorted(fields['unexpectedKeys']), mismatched: sorted(fields['mismatchedKeys']) };
    actual.push({ problem, error: error instanceof Error ? error.name : 'none', keys, tensorsLeft: memory().numTensors - before });
    expected.push({
      problem,
      error: 'StateDictError',
      keys: {
        missing: Object.keys(shapes).filter((key) => !planted.has(key)).sort(),
        unexpected: [...planted.keys()].filter((key) => !Object.hasOwn(shapes, key)).sort(),
        mismatched: Object.keys(shapes).filter((key) => planted.has(key) && planted.get(key)!.toString() !== shapes[key]!.toString()).sort(),
      },
      tensorsLeft: 0,
    });
  }
  return { actual, expected };
}
