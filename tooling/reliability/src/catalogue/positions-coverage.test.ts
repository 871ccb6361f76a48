import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as attention from '@attnkit/attention';
import * as backends from '@attnkit/backends';
import * as errors from '@attnkit/errors';
import * as hub from '@attnkit/hub';
import * as kernels from '@attnkit/kernels';
import * as masks from '@attnkit/masks';
import * as models from '@attnkit/models';
import * as nn from '@attnkit/nn';
import * as scorers from '@attnkit/scorers';
import * as sentence from '@attnkit/sentence';
import * as tokenizers from '@attnkit/tokenizers';
import * as train from '@attnkit/train';
import { ALL_CASES } from './all-cases.js';

const PACKAGES: ReadonlyArray<readonly [string, Record<string, unknown>]> = [['errors', errors], ['backends', backends], ['masks', masks], ['nn', nn], ['scorers', scorers], ['attention', attention], ['hub', hub], ['tokenizers', tokenizers], ['models', models], ['sentence', sentence], ['kernels', kernels], ['train', train]];

/** `pkg.Export` of every public function and class. */
function publicCallables(): string[] {
  return PACKAGES.flatMap(([pkg, exports]) => Object.entries(exports).filter(([, value]) => typeof value === 'function').map(([name]) => `${pkg}.${name}`)).sort();
}

/** What the argument-position tables call: `pkg.Export` from `pkg.Export argument 2 = ...` and `pkg.Export.method option k = ...`. */
function coveredNames(): Set<string> {
  const covered = new Set<string>();
  for (const c of ALL_CASES) {
    if (c.area !== 'argument positions') continue;
    const name = /^([a-z]+\.[A-Za-z0-9_$]+)[.\s]/.exec(c.input)?.[1];
    if (name !== undefined) covered.add(name);
  }
  return covered;
}

/** The exports no table calls, each with why (`positionsExempt` records of the `*-cases.ts` files). */
async function exemptions(): Promise<Map<string, string>> {
  const reasons = new Map<string, string>();
  const folder = new URL('.', import.meta.url);
  for (const file of readdirSync(folder).filter((name) => name.endsWith('-cases.ts')).sort()) {
    const module = (await import(`./${file.replace(/\.ts$/, '.js')}`)) as { positionsExempt?: Record<string, string> };
    for (const [name, reason] of Object.entries(module.positionsExempt ?? {})) {
      if (reasons.has(name)) throw new Error(`${name} is exempted twice (${file})`);
      reasons.set(name, reason);
    }
  }
  return reasons;
}

describe('the argument-position tables', () => {
  it('call every public function and class of every package, or say why not', async () => {
    const covered = coveredNames();
    const exempt = await exemptions();
    const missing = publicCallables().filter((name) => !covered.has(name) && !exempt.has(name));
    expect(missing).toEqual([]);
  });

  it('exempt only exports that exist and no table calls, each with a reason', async () => {
    const all = new Set(publicCallables());
    const covered = coveredNames();
    for (const [name, reason] of await exemptions()) {
      expect(all.has(name), `${name} is no public export`).toBe(true);
      expect(covered.has(name), `${name} is called by a table and exempted`).toBe(false);
      expect(reason.length, `${name}: a reason`).toBeGreaterThan(10);
    }
  });
});
