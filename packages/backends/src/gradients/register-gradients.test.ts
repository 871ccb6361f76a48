import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// Plain Node, not Vitest: Vitest resolves tfjs-core through its bundler, where tfjs-core's own
// register_all_gradients loads; Node does not, which is what this export is for.
const run = promisify(execFile);
const PACKAGE = join(import.meta.dirname, '..', '..');
const scripts: string[] = [];
async function node(code: string): Promise<{ stdout: string; stderr: string }> {
  const file = join(PACKAGE, `gradients-check-${scripts.length}.tmp.mjs`); // inside the package: '@attnkit/backends' resolves to itself
  scripts.push(file);
  writeFileSync(file, code);
  return run(process.execPath, [file], { cwd: PACKAGE }).catch((e: { stdout: string; stderr: string }) => ({ stdout: e.stdout, stderr: e.stderr }));
}
const PROGRAM = `
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
tf.env().set('PROD', true);
const x = tf.tensor1d([0.5, -1, 2]);
const g = tf.grad((v) => tf.sum(tf.mul(tf.tanh(v), tf.exp(v))))(x);
const w = tf.variable(tf.tensor2d([[1, 2], [3, 4]]));
const adam = tf.train.adam(0.1);
const before = tf.memory().numTensors;
for (let i = 0; i < 3; i++) tf.dispose(adam.minimize(() => tf.sum(tf.square(tf.matMul(w, w))), true));
console.log(JSON.stringify({ grad: Array.from(await g.data()), w: Array.from(await w.data()), growth: tf.memory().numTensors - before }));
`;

describe("'@attnkit/backends/gradients' in plain Node", () => {
  afterAll(() => scripts.forEach((f) => rmSync(f, { force: true })));

  it('without it, tfjs-core has no gradients in Node (what users hit)', async () => {
    const { stderr } = await node(PROGRAM);
    expect(stderr).toMatch(/gradient function not found for Tanh|Cannot compute gradient/);
  }, 60_000);

  it('imported before tfjs-core: tensors the program makes still work (the program\'s tfjs-core owns the engine)', async () => {
    const { stdout, stderr } = await node(`import '@attnkit/backends/gradients';\nimport * as tf from '@tensorflow/tfjs-core';\nimport '@tensorflow/tfjs-backend-cpu';\ntf.env().set('PROD', true);\nconst x = tf.tensor1d([1, 2]);\nconsole.log(JSON.stringify(Array.from(await tf.grad((v) => tf.sum(tf.square(tf.add(v.cast('float32'), 1))))(x).data())));`);
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toEqual([4, 6]); // d/dv (v + 1)² = 2 (v + 1); Tensor.cast is the program's tfjs-core method
  }, 60_000);

  it('with it: tf.grad and optimizers work on the tfjs-core the program imports, with the analytic values', async () => {
    const { stdout, stderr } = await node(`import '@attnkit/backends/gradients';\n${PROGRAM}`);
    expect(stderr).toBe('');
    const { grad, w, growth } = JSON.parse(stdout) as { grad: number[]; w: number[]; growth: number };
    // d/dv tanh(v)·e^v = e^v (1 - tanh² v + tanh v)
    expect(grad).toEqual([0.5, -1, 2].map((v) => expect.closeTo(Math.exp(v) * (1 - Math.tanh(v) ** 2 + Math.tanh(v)), 5)));
    expect(w.every((value, i) => value < [1, 2, 3, 4][i]!)).toBe(true); // three Adam steps down a loss that grows with every entry
    expect(growth).toBe(2); // Adam's two moment variables per parameter, created on the first step; nothing else stays
  }, 60_000);
});
