// Types of stale-build.mjs, for the TypeScript test that uses it (packages/cli/src/stale-build.test.ts).

/** Why the build of workspace package `name` (and of the workspace packages it depends on) is not current, or `undefined` when it is. */
export function staleBuild(root: string, name: string): string | undefined;
