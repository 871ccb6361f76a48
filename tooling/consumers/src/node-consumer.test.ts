import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../scripts/pack-packages.mjs';
import { createConsumerProject, REPO_ROOT, type ConsumerProject } from './consumer-project.js';
import { readmeBlock } from './readme-block.js';
import { parseSetupScript } from './setup-script.js';

// A Node app as the root README's "Use it in your app" section has a user write it: the packed
// packages npm-installed into a fresh folder, the README's snippet run as it is.
const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const hiddenSize = (JSON.parse(readFileSync(join(REPO_ROOT, 'packages/models/assets/attnkit-tiny-bert/config.json'), 'utf8')) as { hidden_size: number }).hidden_size;
let project: ConsumerProject;

beforeAll(() => {
  project = createConsumerProject('node-app', parseSetupScript(readmeBlock(readme, 'node-setup')), ['@attnkit/cli']);
  console.log(`node consumer: pack ${Math.round(project.timings.packMs)} ms, npm install ${Math.round(project.timings.installMs)} ms`);
}, 300_000);
afterAll(() => project?.remove());

describe('a Node app using the published packages', () => {
  it("runs the README's Node snippet: an embedding length and a similarity in [-1, 1]", () => {
    writeFileSync(join(project.dir, 'embed.mjs'), readmeBlock(readme, 'node'));
    const ran = run(process.execPath, ['embed.mjs'], project.dir);
    expect(ran.ok, ran.output).toBe(true);
    expect(ran.stdout).toMatch(/^embedding length: \d+\nsimilarity: -?\d\.\d{4}\n$/);
    expect(Number(/embedding length: (\d+)/.exec(ran.stdout)![1])).toBe(hiddenSize);
    const similarity = Number(/similarity: (\S+)/.exec(ran.stdout)![1]);
    expect(similarity).toBeGreaterThanOrEqual(-1);
    expect(similarity).toBeLessThanOrEqual(1);
  });

  it('runs the published bin: npx attnkit similarity --json', () => {
    // --no: never fetch a package called attnkit from the registry; the installed bin or a failure.
    const ran = run('npx', ['--no', 'attnkit', 'similarity', '--backend', 'cpu', '--text', 'a cat', '--text', 'a dog', '--json'], project.dir);
    expect(ran.ok, ran.output).toBe(true);
    const result = JSON.parse(ran.stdout) as { texts: string[]; similarity: number[][] };
    expect(result.texts).toEqual(['a cat', 'a dog']);
    expect(result.similarity).toHaveLength(2);
    expect(result.similarity[0]![0]).toBeCloseTo(1, 5);
    expect(result.similarity[0]![1]).toBeCloseTo(result.similarity[1]![0]!, 6);
    expect(Math.abs(result.similarity[0]![1]!)).toBeLessThanOrEqual(1);
  });
});
