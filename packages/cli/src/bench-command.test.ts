import { memory } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { formatBench, parseBenchArgs, runBench } from './bench-command.js';
import { embeddedModelFolder } from './embedded-model.js';

describe('attnkit bench', () => {
  it('defaults: the embedded model on wasm, a batch of 8 texts of 128 tokens, 5 warm runs', () => {
    expect(parseBenchArgs([])).toEqual({ model: embeddedModelFolder(), backends: ['wasm'], batch: 8, tokens: 128, runs: 5, json: false });
    expect(parseBenchArgs(['--backend', 'cpu,wasm', '--batch', '2', '--tokens', '16', '--runs', '3', '--json'])).toMatchObject({ backends: ['cpu', 'wasm'], batch: 2, tokens: 16, runs: 3, json: true });
  });

  it('measures every backend: texts of the asked token count, warm median between min and max, texts/s from the median; no tensors left', async () => {
    const request = parseBenchArgs(['--backend', 'cpu,wasm', '--batch', '4', '--tokens', '20', '--runs', '3']);
    await useBackend('cpu');
    const before = memory().numTensors;
    const results = await runBench(request);
    expect(results.map((r) => r.backend)).toEqual(['cpu', 'wasm']);
    for (const r of results) {
      expect(r.tokens).toBe(20);
      expect(r.loadMs).toBeGreaterThan(0);
      expect(r.warmMinMs).toBeLessThanOrEqual(r.warmMedianMs);
      expect(r.warmMedianMs).toBeLessThanOrEqual(r.warmMaxMs);
      // texts/s comes from the unrounded median, warmMedianMs is rounded to 0.1 ms (and texts/s too): a few ms of warm time leave a range, not ±5
      expect(r.textsPerSecond).toBeGreaterThanOrEqual((4 * 1000) / (r.warmMedianMs + 0.05) - 0.05);
      expect(r.textsPerSecond).toBeLessThanOrEqual((4 * 1000) / (r.warmMedianMs - 0.05) + 0.05);
    }
    expect(results[1]!.threads).toBeGreaterThanOrEqual(1);
    expect(memory().numTensors).toBe(before);
    const table = formatBench(results, request).split('\n');
    expect(table[1]).toMatch(/backend\s+threads\s+tokens\/text\s+load ms\s+first ms\s+warm median ms\s+min\.\.max ms\s+texts\/s/);
    expect(table).toHaveLength(4);
  }, 120_000);

  it("caps the tokens at the model's maximum sequence length", async () => {
    const [result] = await runBench(parseBenchArgs(['--backend', 'cpu', '--batch', '1', '--tokens', '5000', '--runs', '1']));
    expect(result!.tokens).toBe(128); // the embedded model's max_position_embeddings
  }, 120_000);

  it.each([
    [['--backend', 'webgl'], /'--backend' must be cpu, wasm or cpu,wasm \(each once\); received "webgl"/],
    [['--backend', 'cpu,cpu'], /'--backend' must be cpu, wasm or cpu,wasm \(each once\); received "cpu,cpu"/],
    [['--batch', '0'], /'--batch' must be a whole number from 1 to 4096; received "0"/],
    [['--runs', 'many'], /'--runs' must be a whole number from 1 to 1000; received "many"/],
    [['--tokens=-3'], /'--tokens' must be a whole number from 1 to 8192; received "-3"/],
    [['--fast'], /'arguments' must be the options of attnkit bench; received Unknown option '--fast'/],
  ])('%j is an InvalidArgumentError', (args, message) => {
    const error = thrown(() => parseBenchArgs(args));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(message);
  });
});
