// Gradients need tfjs' gradient functions registered; tfjs-core alone registers none.
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import { add, keep, mul, scalar, sum, variableGrads, type Tensor, type Variable } from '@tensorflow/tfjs-core';

/**
 * Runs `forward` once under a gradient tape and returns its outputs plus the gradients of
 * `loss = Σ_name sum(output[name] · cotangents[name])` with respect to every `wrt` variable, named
 * `grad.<key>` — the shape of the PyTorch fixtures (`tooling/reference/make_nn_fixtures.py`). To get an
 * input's gradient, pass the input as a `tf.variable` in `wrt`; with no `wrt`, only the outputs.
 * Call it inside `compareBackends`.
 *
 * @example
 * outputsAndGradients(() => ({ output: layer.forward(x) }), { output: cotangent }, [...layer.namedParameters(), ['x', x]]);
 */
export function outputsAndGradients(
  forward: () => Record<string, Tensor>,
  cotangents: Readonly<Record<string, Tensor>>,
  wrt: ReadonlyArray<readonly [string, Variable]>,
): Record<string, Tensor> {
  if (wrt.length === 0) return forward(); // values only
  let outputs: Record<string, Tensor> = {};
  const { value, grads } = variableGrads(() => {
    outputs = forward();
    let loss: Tensor = scalar(0);
    for (const [name, output] of Object.entries(outputs)) {
      keep(output);
      const cotangent = cotangents[name];
      if (cotangent !== undefined) loss = add(loss, sum(mul(output, cotangent)));
    }
    return loss as never;
  }, wrt.map(([, v]) => v));
  value.dispose();
  const named: Record<string, Tensor> = { ...outputs };
  for (const [key, v] of wrt) {
    const grad = grads[v.name];
    if (grad === undefined) throw new Error(`no gradient for '${key}' (variable ${v.name})`);
    named[`grad.${key}`] = grad;
  }
  return named;
}
