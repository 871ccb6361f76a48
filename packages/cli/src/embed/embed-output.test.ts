import { appendFileSync, existsSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { EmbedOutput, idsPathOf, type EmbedSettings } from './embed-output.js';
import { NPY_HEADER_BYTES, readNpyHeader } from './npy-header.js';

const SETTINGS: EmbedSettings = { input: '/data/in.txt', model: '/models/m', format: 'npy', textField: 'text', idField: 'id', promptName: null, normalize: false, shard: '0/1', dim: 3 };
const fresh = () => mkdtempSync(join(tmpdir(), 'attnkit-output-'));
const rowsOf = (first: number, count: number) => Float32Array.from({ length: count * 3 }, (_, i) => first * 3 + i);
function readNpy(path: string): { shape: readonly number[]; values: number[] } {
  const bytes = readFileSync(path);
  const header = readNpyHeader(bytes)!;
  return { shape: header.shape, values: Array.from(new Float32Array(bytes.buffer.slice(bytes.byteOffset + header.dataOffset, bytes.byteOffset + bytes.length))) };
}
const ids = (path: string) => readFileSync(idsPathOf(path), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);

describe('EmbedOutput', () => {
  it('npy: appends rows in order, ids beside them, and writes the final row count and a complete sidecar', () => {
    const path = join(fresh(), 'v.npy');
    const out = EmbedOutput.open(path, SETTINGS);
    out.append([1, 'b'], rowsOf(0, 2));
    out.append([3], rowsOf(2, 1));
    out.finish();
    expect(readNpy(path)).toEqual({ shape: [3, 3], values: Array.from(rowsOf(0, 3)) });
    expect(ids(path)).toEqual([1, 'b', 3]);
    expect(JSON.parse(readFileSync(`${path}.embed.json`, 'utf8'))).toEqual({ settings: SETTINGS, complete: true, rows: 3 });
    const again = EmbedOutput.open(path, SETTINGS);
    expect([again.complete, again.rows]).toEqual([true, 3]);
  });

  it('keepText: {"id", "text"} lines beside the vectors (a "text" in each jsonl line); an output started otherwise is not resumed with it', () => {
    const path = join(fresh(), 'v.npy');
    const out = EmbedOutput.open(path, { ...SETTINGS, keepText: true });
    out.append([1, 'b'], rowsOf(0, 2), ['a cat', 'a "dog"']);
    out.close();
    expect(ids(path)).toEqual([{ id: 1, text: 'a cat' }, { id: 'b', text: 'a "dog"' }]);
    expect((thrown(() => EmbedOutput.open(path, SETTINGS)) as Error).message).toMatch(/received keepText: true then, undefined now/);
    const resumed = EmbedOutput.open(path, { ...SETTINGS, keepText: true });
    expect(resumed.resumedRows).toBe(2);
    resumed.close();
    const lines = join(fresh(), 'v.jsonl');
    const jsonl = EmbedOutput.open(lines, { ...SETTINGS, format: 'jsonl', keepText: true });
    jsonl.append(['x'], rowsOf(0, 1), ['hello']);
    jsonl.finish();
    expect(readFileSync(lines, 'utf8')).toBe('{"id":"x","text":"hello","embedding":[0,1,2]}\n');
  });

  it('jsonl: one {"id", "embedding"} line per row', () => {
    const path = join(fresh(), 'v.jsonl');
    const out = EmbedOutput.open(path, { ...SETTINGS, format: 'jsonl' });
    out.append(['x', 9], rowsOf(0, 2));
    out.finish();
    expect(readFileSync(path, 'utf8')).toBe('{"id":"x","embedding":[0,1,2]}\n{"id":9,"embedding":[3,4,5]}\n');
  });

  it('jsonl: float32 values as the shortest decimals that read back the same (0.1, not 0.10000000149011612)', () => {
    const path = join(fresh(), 'v.jsonl');
    const out = EmbedOutput.open(path, { ...SETTINGS, format: 'jsonl' });
    const vectors = new Float32Array([0.1, 1 / 3, -1.0000001]);
    out.append(['x'], vectors);
    out.finish();
    const line = readFileSync(path, 'utf8');
    expect(line).toBe('{"id":"x","embedding":[0.1,0.33333334,-1.0000001]}\n');
    expect(Float32Array.from((JSON.parse(line) as { embedding: number[] }).embedding)).toEqual(vectors);
  });

  it('npy: resumes after the last complete row — a partial vector and a partial id line are cut, nothing is lost or repeated', () => {
    const path = join(fresh(), 'v.npy');
    const out = EmbedOutput.open(path, SETTINGS);
    out.append([1, 2, 3], rowsOf(0, 3));
    out.close(); // interrupted
    // a write in flight when the process died: 4th vector half written, its id not yet
    appendFileSync(path, Buffer.from(rowsOf(3, 1).buffer).subarray(0, 6));
    const resumed = EmbedOutput.open(path, SETTINGS);
    expect(resumed.resumedRows).toBe(3);
    resumed.append([4, 5], rowsOf(3, 2));
    resumed.finish();
    expect(readNpy(path)).toEqual({ shape: [5, 3], values: Array.from(rowsOf(0, 5)) });
    expect(ids(path)).toEqual([1, 2, 3, 4, 5]);
  });

  it('npy: a vector whose id line was cut mid-way is recomputed (rows = complete id lines)', () => {
    const path = join(fresh(), 'v.npy');
    const out = EmbedOutput.open(path, SETTINGS);
    out.append(['aa', 'bb'], rowsOf(0, 2));
    out.close();
    truncateSync(idsPathOf(path), 6); // '"aa"\n"b'
    const resumed = EmbedOutput.open(path, SETTINGS);
    expect(resumed.resumedRows).toBe(1);
    resumed.append(['bb'], rowsOf(1, 1));
    resumed.finish();
    expect(readNpy(path)).toEqual({ shape: [2, 3], values: Array.from(rowsOf(0, 2)) });
    expect(ids(path)).toEqual(['aa', 'bb']);
    expect(readFileSync(path).length).toBe(NPY_HEADER_BYTES + 2 * 3 * 4);
  });

  it('jsonl: resumes after the last complete line', () => {
    const path = join(fresh(), 'v.jsonl');
    const out = EmbedOutput.open(path, { ...SETTINGS, format: 'jsonl' });
    out.append([1], rowsOf(0, 1));
    out.close();
    appendFileSync(path, '{"id":2,"embed');
    const resumed = EmbedOutput.open(path, { ...SETTINGS, format: 'jsonl' });
    expect(resumed.resumedRows).toBe(1);
    resumed.append([2], rowsOf(1, 1));
    resumed.finish();
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: number }).id)).toEqual([1, 2]);
  });

  it('refuses to resume with other settings, naming each difference; --overwrite starts again', () => {
    const path = join(fresh(), 'v.npy');
    EmbedOutput.open(path, SETTINGS).close();
    const error = thrown(() => EmbedOutput.open(path, { ...SETTINGS, normalize: true, model: '/models/other' }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(/'--output' must be the settings the output was started with, to resume it; received model: "\/models\/m" then, "\/models\/other" now; normalize: false then, true now/);
    expect((error as Error).message).toMatch(/pass --overwrite to start again/);
    const restarted = EmbedOutput.open(path, { ...SETTINGS, normalize: true }, { overwrite: true });
    expect(restarted.resumedRows).toBe(0);
    restarted.close();
  });

  it('never replaces a file it did not start (no sidecar), and refuses a folder', () => {
    const folder = fresh();
    const path = join(folder, 'mine.npy');
    writeFileSync(path, 'precious');
    expect((thrown(() => EmbedOutput.open(path, SETTINGS)) as Error).message).toMatch(/an existing file that attnkit embed did not start .*Choose another --output, or pass --overwrite/);
    expect(readFileSync(path, 'utf8')).toBe('precious');
    expect(existsSync(`${path}.embed.json`)).toBe(false);
    expect((thrown(() => EmbedOutput.open(folder, SETTINGS)) as Error).message).toMatch(/must be a regular file path; received a folder/);
  });

  it('refuses a vector buffer that does not match the ids', () => {
    const out = EmbedOutput.open(join(fresh(), 'v.npy'), SETTINGS);
    expect(() => out.append([1, 2], rowsOf(0, 1))).toThrow(/2 ids need 6 values; received 3/);
    out.close();
  });
});
