// The root README's packages table says each package's status; each package README says it too,
// on the line after its title. They must agree.
import { describe, expect, it } from 'vitest';
import { readmeStatus, tableStatuses } from './package-status.js';
import { PACKAGE_READMES, readRepoFile } from './workspace-readmes.js';

const rows = tableStatuses(readRepoFile('README.md'));

/**
 * READMEs this branch may not edit, and why they have no status line yet. packages/cli is being
 * changed elsewhere; when its README states its status, this entry fails: delete it.
 */
const PENDING: Record<string, string> = { 'packages/cli/README.md': 'changed on another branch (its option sections are generated)' };

describe('readmeStatus', () => {
  it('reads the status line right after the title', () => {
    expect(readmeStatus('# @attnkit/x\n\n**Status:** ready\n\nWhat is x? ...')).toBe('ready');
    expect(readmeStatus('# @attnkit/x\n\n**Status:** experimental\n')).toBe('experimental');
    expect(readmeStatus('# @attnkit/x\n\nWhat is x? ...')).toBeUndefined();
  });

  it('refuses a status line elsewhere, twice, or with an unknown word', () => {
    expect(() => readmeStatus('# x\n\nWhat is x?\n\n**Status:** ready\n', 'x/README.md')).toThrow('readmeStatus: x/README.md must state its status once, on line 3 right after its title, as `**Status:** ready | experimental | deprecated`; found "**Status:** ready" on line 5.');
    expect(() => readmeStatus('# x\n\n**Status:** done\n')).toThrow('found "**Status:** done" on line 3.');
    expect(() => readmeStatus('# x\n\n**Status:** ready\n**Status:** ready\n')).toThrow('on line 3 and 1 more.');
  });
});

describe("the packages table's status column", () => {
  it('has a row for every package README and for the demo', () => {
    expect(rows.map((row) => row.readme).sort()).toEqual([...PACKAGE_READMES, 'apps/demo/README.md'].sort());
  });

  it.each(rows)('$readme: states the status the table gives ($status)', ({ readme, status }) => {
    const stated = readmeStatus(readRepoFile(readme), readme);
    expect(stated ?? (readme in PENDING ? status : undefined), `${readme} has no status line ("**Status:** ${status}" on line 3)`).toBe(status);
    if (readme in PENDING) expect(stated, `${readme} states its status now: delete its PENDING entry`).toBeUndefined();
  });
});
