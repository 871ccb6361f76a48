// Types of pack-packages.mjs, for the TypeScript tests that use it (tooling/consumers).

/** A publishable package of the checkout. */
export interface PublishablePackage {
  readonly dir: string;
  readonly manifest: { readonly name: string; readonly dependencies?: Record<string, string>; readonly peerDependencies?: Record<string, string> };
}

export function run(command: string, commandArgs: readonly string[], cwd: string, env?: Record<string, string>): { ok: boolean; status: number | null; stdout: string; output: string };
export function publishablePackages(root: string): Map<string, PublishablePackage>;
export function withAttnkitDependencies(name: string, packages: Map<string, PublishablePackage>, seen?: Set<string>): Set<string>;
export function packPackages(root: string, destination: string): { packages: Map<string, PublishablePackage>; tarballs: Map<string, string>; notes: string[] };
export function writeConsumerProject(project: string, options: { attnkit: readonly string[]; registry?: Record<string, string>; tarballs: Map<string, string> }): void;
export function npmInstall(project: string, extraArgs?: readonly string[]): { ok: boolean; output: string };
