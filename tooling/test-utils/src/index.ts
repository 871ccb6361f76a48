// Browser-safe helpers only; Chromium discovery (node:fs) lives at '@attnkit/test-utils/chromium'.
export { leaksOf } from './leaks-of.js';
export { thrown } from './thrown.js';
export { seededIntegers } from './seeded-integers.js';
export { ParityTable, type ParityReport } from './parity-table.js';
export { fixtureRows, fixtureTensor, fixtureValues, specOf, type FixtureCase, type FixtureFile, type TensorSpec } from './fixture-tensor.js';
export { outputsAndGradients } from './outputs-and-gradients.js';
export { scaledErrors } from './scaled-error.js';
export { servedPath } from './served-path.js';
export { checkpointRefusals, type CheckpointRefusal } from './checkpoint-refusals.js';
