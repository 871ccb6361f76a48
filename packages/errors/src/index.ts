export { AttnkitError } from './attnkit-error.js';
export { InvalidArgumentError, type InvalidArgumentDetails } from './invalid-argument-error.js';
export { UseAfterDisposeError } from './use-after-dispose-error.js';
export { checkTensor, checkInteger, broadcastShapes, describeValue, formatShape, isTensorLike, assertFinite, checkObject, checkOptionKeys, checkBoolean, checkFunction, checkAbortSignal, type TensorRequirement } from './validate/index.js';
export { boundMessage, MAX_MESSAGE_LENGTH } from './bound-message.js';
export { summarizeList } from './summarize-list.js';
export { ResourceLimitError, formatBytes } from './resource-limit-error.js';
export { detectEnvironment, type RuntimeEnvironment } from './detect-environment.js';
export { nodeBuiltin, type BuiltIns } from './node-builtin.js';
