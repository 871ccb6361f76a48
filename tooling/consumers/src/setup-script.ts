/** A README setup script, split into what `npm install` installs and the commands after it. */
export interface SetupScript {
  /** The package names of its `npm install` line, in order. */
  readonly packages: readonly string[];
  /** Every other line, to run with `sh -e` in the project. */
  readonly commands: string;
}

/**
 * Splits a README setup script: its one `npm install a b c` line (names without versions) and the
 * lines after it.
 *
 * @example
 * parseSetupScript('npm install @attnkit/models vite\nmkdir public\n'); // { packages: ['@attnkit/models', 'vite'], commands: 'mkdir public' }
 */
export function parseSetupScript(script: string): SetupScript {
  const lines = script.split('\n').filter((line) => line.trim() !== '');
  const installs = lines.filter((line) => /^npm install /.test(line));
  if (installs.length !== 1) throw new Error(`parseSetupScript: the setup script must have one \`npm install\` line; found ${installs.length} in:\n${script}`);
  const packages = installs[0]!.slice('npm install '.length).trim().split(/\s+/);
  const versioned = packages.filter((name) => name.lastIndexOf('@') > 0);
  if (versioned.length > 0) throw new Error(`parseSetupScript: name packages without versions (the tests pin them); received ${versioned.join(', ')}.`);
  return { packages, commands: lines.filter((line) => line !== installs[0]).join('\n') };
}
