import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { npmInstall, packPackages, publishablePackages, run, writeConsumerProject } from '../../scripts/pack-packages.mjs';
import type { SetupScript } from './setup-script.js';

/** The repository root (this file is tooling/consumers/src/consumer-project.ts). */
export const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');

/** The versions the tests install of the registry packages a README setup line names. */
const REGISTRY_VERSIONS: Readonly<Record<string, string>> = {
  '@tensorflow/tfjs-core': '4.22.0',
  '@tensorflow/tfjs-backend-wasm': '4.22.0',
  vite: '7.3.8',
};

/** A fresh consumer project with the packed @attnkit packages installed. */
export interface ConsumerProject {
  readonly dir: string;
  /** Milliseconds: building missing dist/ folders and `pnpm pack`ing every publishable package; `npm install`. */
  readonly timings: { readonly packMs: number; readonly installMs: number };
  /** Removes the project and its tarballs. */
  remove(): void;
}

/**
 * Packs the publishable packages of this checkout (built first) and, in a new temporary folder, `npm install`s
 * what `setup` names (the @attnkit names from the tarballs, the others at {@link REGISTRY_VERSIONS})
 * plus `extra` @attnkit names, then runs the setup's other commands there. Throws with npm's output
 * when the install fails — an unreachable registry included.
 */
export function createConsumerProject(name: string, setup: SetupScript, extra: readonly string[] = []): ConsumerProject {
  // Built by turbo (`^build`: they are this package's devDependencies). Not built here: two test
  // files pack at once, and packPackages removes the dist/ folders it builds.
  const unbuilt = [...publishablePackages(REPO_ROOT)].filter(([, { dir }]) => !existsSync(join(dir, 'dist'))).map(([pkg]) => pkg);
  if (unbuilt.length > 0) throw new Error(`createConsumerProject: ${unbuilt.join(', ')} not built; run \`pnpm turbo run build --filter=@attnkit/consumers^...\` (\`pnpm turbo run test --filter=@attnkit/consumers\` builds them first).`);
  const work = mkdtempSync(join(tmpdir(), `attnkit-consumer-${name}-`));
  const remove = () => rmSync(work, { recursive: true, force: true });
  try {
    const tarballDir = join(work, 'tarballs');
    const dir = join(work, name);
    mkdirSync(tarballDir);
    mkdirSync(dir);
    let started = performance.now();
    const { tarballs, notes } = packPackages(REPO_ROOT, tarballDir);
    if (notes.length > 0) throw new Error(`createConsumerProject: ${notes.join('; ')}`);
    const packMs = performance.now() - started;
    const names = [...setup.packages, ...extra];
    const registry: Record<string, string> = {};
    for (const pkg of names.filter((n) => !n.startsWith('@attnkit/'))) {
      const version = REGISTRY_VERSIONS[pkg];
      if (version === undefined) throw new Error(`createConsumerProject: no pinned version for ${pkg}; add it to REGISTRY_VERSIONS.`);
      registry[pkg] = version;
    }
    writeConsumerProject(dir, { attnkit: names.filter((n) => n.startsWith('@attnkit/')), registry, tarballs });
    started = performance.now();
    npmInstall(dir, ['--prefer-offline']);
    const installMs = performance.now() - started;
    if (setup.commands !== '') {
      const ran = run('sh', ['-e', '-c', setup.commands], dir);
      if (!ran.ok) throw new Error(`createConsumerProject: the setup commands failed in ${dir}:\n${setup.commands}\n${ran.output}`);
    }
    return { dir, timings: { packMs, installMs }, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
