import { tensor2d } from '@tensorflow/tfjs-core';
import { expect, it } from 'vitest';
import { availableBackends, useBackend } from '@attnkit/backends';
import { firstCountedPosition, lastCountedPosition } from './counted-positions.js';

// On every backend of the page, webgpu included: tfjs-webgpu's argMax gives 32, not 5, as the first
// maximum of a row of 5 zeros then 59 ones, which is why pooling does not use argMax.
it.each(await availableBackends())('first and last counted positions of 64-token rows on %s', async (backend) => {
  await useBackend(backend);
  const row = (counted: (t: number) => boolean) => Array.from({ length: 64 }, (_, t) => (counted(t) ? 1 : 0));
  const mask = tensor2d([row((t) => t >= 5), row((t) => t < 40), row((t) => t >= 30)]);
  const [first, last] = [firstCountedPosition(mask), lastCountedPosition(mask)];
  expect(await first.array()).toEqual([5, 0, 30]);
  expect(await last.array()).toEqual([63, 39, 63]);
  [mask, first, last].forEach((t) => t.dispose());
});
