import type { BackendName } from '../backend-name.js';
import type { BackendCapabilities } from '../capabilities.js';
import type { UseBackendOptions } from '../use-backend-options.js';
import type { BackendPackage } from './backend-package.js';

/** The backend-specific part of a capability report. */
export type AdapterDescription = Pick<BackendCapabilities, 'floatPrecision' | 'wasm' | 'webgl' | 'webgpu'>;

/**
 * What attnkit needs from each backend: whether it can run here, how to bring it up, what it
 * really offers, and which missing kernels it fills. One implementation per backend file.
 */
export interface BackendAdapter {
  readonly name: BackendName;
  /** The optional peer package the backend lives in (none for cpu, a dependency). */
  readonly optionalPackage?: BackendPackage;
  /** Why this environment cannot run the backend, or `undefined` if it can. Initialises nothing. */
  unavailableReason(): Promise<string | undefined>;
  /**
   * Loads the tfjs backend package, configures it and makes it the active backend. Throws
   * BackendPackageMissingError when {@link optionalPackage} is not installed.
   */
  initialize(options: UseBackendOptions): Promise<void>;
  /** Re-registers kernels the backend gets wrong (idempotent); returns their names. */
  fillKernels(): readonly string[];
  /** Reads what the initialised backend really runs with. */
  describe(): Promise<AdapterDescription>;
}
