/** A folder of the repository as a filesystem path (the catalogue runs in Node). */
export function repoPath(relative: string): string {
  return decodeURIComponent(new URL(`../../../../${relative}`, import.meta.url).pathname);
}
