import type { BackendName } from '../backend-name.js';

/**
 * A tfjs backend that lives in its own npm package, an optional peer dependency of
 * `@attnkit/backends`: the package is loaded only when its backend is asked for.
 */
export interface BackendPackage<Module = unknown> {
  readonly backend: BackendName;
  /** The npm name, e.g. `'@tensorflow/tfjs-backend-wasm'`. */
  readonly name: string;
  /** The range `@attnkit/backends` declares for it, e.g. `'^4.22.0'`. */
  readonly versionRange: string;
  /** `import()` of the package, spelled out with a literal name so bundlers can see it. */
  load(): Promise<Module>;
  /**
   * Whether the package is there, without loading it: Node resolves it from `@attnkit/backends`;
   * in a browser the bundler has already decided, so this is `true` and a missing package shows
   * when {@link load} fails.
   */
  installed(): boolean;
}
