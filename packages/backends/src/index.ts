export { BACKEND_NAMES, parseBackendName, type BackendName } from './backend-name.js';
export type { BackendCapabilities, WasmCapabilities, WebglCapabilities, WebgpuCapabilities } from './capabilities.js';
export { WASM_BINARY_NAMES, type UseBackendOptions, type WasmBinaryName } from './use-backend-options.js';
export { useBackend } from './use-backend.js';
export { availableBackends } from './available-backends.js';
export { describeBackend } from './describe-backend.js';
export { withBackend } from './with-backend.js';
export { callBackend, type CallBackend } from './call-backend.js';
export { ensureBackend } from './ensure-backend.js';
export { assertBackendReady } from './assert-backend-ready.js';
export { compareBackends, type CompareBackendsOptions, type ComparisonReport, type BackendComparison, type OutputComparison } from './compare-backends.js';
export { maxDifference, type Difference } from './max-difference.js';
export { defaultTolerance, DEFAULT_RELATIVE_TOLERANCE } from './default-tolerance.js';
export { namedOutputs, type TensorOutputs } from './named-outputs.js';
export { REQUIRED_KERNELS, missingKernels } from './required-kernels.js';
export { UnknownBackendError } from './errors/unknown-backend-error.js';
export { BackendUnavailableError } from './errors/backend-unavailable-error.js';
export { BackendPackageMissingError, type BackendPackageMissingDetails } from './errors/backend-package-missing-error.js';
export { BackendInitError } from './errors/backend-init-error.js';
export { BackendNotReadyError } from './errors/backend-not-ready-error.js';
export { WasmBinariesMissingError } from './errors/wasm-binaries-missing-error.js';
export { memoryBudget, checkMemoryBudget, type MemoryBudget } from './memory-budget.js';
// Defined in @attnkit/errors (the lowest package: @attnkit/kernels throws and uses them too), and
// still exported here, where they were first.
export { ResourceLimitError, detectEnvironment, nodeBuiltin, type RuntimeEnvironment, type BuiltIns } from '@attnkit/errors';
