export { checkObject } from './check-object.js';
export { checkTensor, type TensorRequirement } from './check-tensor.js';
export { checkInteger } from './check-integer.js';
export { broadcastShapes } from './broadcast-shapes.js';
export { describeValue, formatShape, isTensorLike } from './describe-value.js';
export { assertFinite } from './assert-finite.js';
export { checkOptionKeys } from './check-option-keys.js';
export { checkBoolean } from './check-boolean.js';
