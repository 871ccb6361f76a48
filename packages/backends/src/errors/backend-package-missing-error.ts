import { AttnkitError, messageText, messageTexts } from '@attnkit/errors';

/** The structured parts of a {@link BackendPackageMissingError} message. */
export interface BackendPackageMissingDetails {
  /** The public function that needed the package, e.g. `'useBackend'`. */
  readonly caller: string;
  /** The backend that lives in the package, e.g. `'wasm'`. */
  readonly backend: string;
  /** The npm package to install, e.g. `'@tensorflow/tfjs-backend-wasm'`. */
  readonly packageName: string;
  /** The version range `@attnkit/backends` accepts, e.g. `'^4.22.0'`. */
  readonly versionRange: string;
  /** The import or resolve failure that showed the package is missing, if there was one. */
  readonly cause?: unknown;
}

/**
 * The tfjs package of the requested backend is not installed. `@tensorflow/tfjs-backend-wasm`,
 * `-webgl` and `-webgpu` are optional peer dependencies of `@attnkit/backends`: install the ones
 * you use. The message ends with the command that does it.
 *
 * @example
 * await useBackend('wasm'); // without @tensorflow/tfjs-backend-wasm:
 * // BackendPackageMissingError: useBackend: the 'wasm' backend needs @tensorflow/tfjs-backend-wasm,
 * // which is not installed. Install it: npm install @tensorflow/tfjs-backend-wasm@^4.22.0
 */
export class BackendPackageMissingError extends AttnkitError {
  readonly caller: string;
  readonly backend: string;
  readonly packageName: string;
  /** `npm install <packageName>@<versionRange>` */
  readonly installCommand: string;

  constructor(details: BackendPackageMissingDetails) {
    // built from whatever it is given (every part made text), so reporting never throws
    const given: Partial<BackendPackageMissingDetails> = typeof details === 'object' && details !== null ? details : {};
    const [caller, backend, packageName] = [messageText(given.caller), messageText(given.backend), messageText(given.packageName)];
    const installCommand = `npm install ${packageName}@${messageText(given.versionRange)}`;
    super(
      'ATTNKIT_BACKEND_PACKAGE_MISSING',
      `${caller}: the '${backend}' backend needs ${packageName}, which is not installed. ` +
        `Install it: ${installCommand}`,
      { cause: given.cause },
    );
    this.caller = caller;
    this.backend = backend;
    this.packageName = packageName;
    this.installCommand = installCommand;
  }
}
