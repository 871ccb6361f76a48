import { importedPackages } from './readme-snippets.js';

/** The tfjs backend packages, in the order install lines name them. */
const BACKENDS = ['cpu', 'wasm', 'webgl', 'webgpu'] as const;

/**
 * The package names of every `npm install` line in the ```sh blocks of `markdown`, one list per
 * line, flags and versions left out (`@tensorflow/tfjs-backend-wasm@^4.22.0` →
 * `@tensorflow/tfjs-backend-wasm`).
 *
 * @example
 * installLines('```sh\nnpm install @attnkit/masks @tensorflow/tfjs-core@^4.22.0\n```'); // [['@attnkit/masks', '@tensorflow/tfjs-core']]
 */
export function installLines(markdown: string): string[][] {
  const shell = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!).join('');
  return [...shell.matchAll(/^npm install (.+)$/gm)].map((m) =>
    m[1]!.replace(/\s+#.*$/, '').trim().split(/\s+/).filter((word) => !word.startsWith('-')).map((word) => word.replace(/(.)@[^@/]*$/, '$1')),
  );
}

/** What {@link expectedInstall} needs to know of the workspace. */
export interface InstallContext {
  /** The package the README is about (named first), if any. */
  readonly own?: string;
  /** Every @attnkit package, in the order of the root README's packages table. */
  readonly order: readonly string[];
  /** Whether a package has a required (not optional) peer dependency on `@tensorflow/tfjs-core`. */
  readonly needsCore: (name: string) => boolean;
}

/**
 * The @attnkit and @tensorflow packages a use's install line names: every one its snippets
 * import (or its setup commands copy from `node_modules/`), `@tensorflow/tfjs-core` when one of
 * them has it as a peer dependency, and the backend package of every backend the snippets start
 * (`useBackend('wasm')` → `@tensorflow/tfjs-backend-wasm`; a model loaded without `useBackend`
 * runs on wasm in Node). npm installs the rest as their dependencies. In order: the README's own
 * package, the other @attnkit packages as the packages table lists them, tfjs-core, the backends.
 *
 * @example
 * expectedInstall("import { paddingMask } from '@attnkit/masks';\nawait useBackend('wasm');", '', context);
 * // ['@attnkit/masks', '@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-wasm']
 */
export function expectedInstall(code: string, shell: string, context: InstallContext): string[] {
  const used = new Set([...importedPackages(code), ...[...shell.matchAll(/node_modules\/(@attnkit\/[a-z-]+)/g)].map((m) => m[1]!)]);
  const names = [...used].filter((name) => name.startsWith('@attnkit/') || name.startsWith('@tensorflow/'));
  if (names.some((name) => name === '@tensorflow/tfjs-core' || context.needsCore(name))) names.push('@tensorflow/tfjs-core');
  const started = [...code.matchAll(/\buseBackend\(\s*'(\w+)'/g)].map((m) => m[1]!);
  if (started.length === 0 && /\bload(?:SentenceEncoder|Encoder|Bert\w*)\(/.test(code)) started.push('wasm');
  for (const backend of started) if (backend !== 'cpu') names.push(`@tensorflow/tfjs-backend-${backend}`);
  const rank = (name: string): number => {
    if (name === context.own) return -1;
    if (name.startsWith('@attnkit/')) return context.order.includes(name) ? context.order.indexOf(name) : context.order.length;
    if (name === '@tensorflow/tfjs-core') return 1000;
    const backend = BACKENDS.indexOf(name.replace('@tensorflow/tfjs-backend-', '') as (typeof BACKENDS)[number]);
    return 1001 + (backend < 0 ? BACKENDS.length : backend);
  };
  return [...new Set(names)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The @attnkit and @tensorflow names of an install line, in its order (`vite` and other tools left out). */
export function attnkitAndTfjs(line: readonly string[]): string[] {
  return line.filter((name) => name.startsWith('@attnkit/') || name.startsWith('@tensorflow/'));
}
