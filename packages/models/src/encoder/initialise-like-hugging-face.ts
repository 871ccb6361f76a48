import { equal, range, reshape, tidy, where, zerosLike } from '@tensorflow/tfjs-core';
import { Embedding, LayerNorm, initialValues, type Module } from '@attnkit/nn';

/**
 * Hugging Face's `_init_weights` on the parameters `which` selects: Linear and Embedding weights
 * `N(0, std)`, biases 0, LayerNorm 1 / 0, an Embedding's padding row 0. Parameter `i` (in
 * `namedParameters()` order) draws with `seed + i`, so a seed reproduces a model exactly.
 */
export function initialiseLikeHuggingFace(module: Module, std: number, seed: number | undefined, which: (name: string) => boolean = () => true): void {
  const norms = new Set<string>();
  const padded = new Map<string, number>();
  for (const [path, child] of module.namedModules()) {
    const prefix = path === '' ? '' : `${path}.`;
    if (child instanceof LayerNorm) norms.add(`${prefix}weight`);
    if (child instanceof Embedding && child.paddingIdx !== undefined) padded.set(`${prefix}weight`, child.paddingIdx);
  }
  module.namedParameters().forEach(([name, parameter], i) => {
    if (!which(name)) return;
    const init = name.endsWith('.bias') ? { constant: 0 } : norms.has(name) ? { constant: 1 } : { normal: std };
    tidy(() => {
      const values = initialValues(parameter.shape, init, seed === undefined ? undefined : seed + i);
      const pad = padded.get(name);
      const padding = () => reshape(equal(range(0, parameter.shape[0] as number, 1, 'int32'), pad as number), [-1, 1]); // [V, 1]
      parameter.assign(pad === undefined ? values : where(padding(), zerosLike(values), values));
    });
  });
}
