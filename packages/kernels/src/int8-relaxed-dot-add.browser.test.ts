import { expect, it } from 'vitest';
import { WasmInt8Gemm } from './wasm-int8-gemm.js';
import { INT8_GEMM_RELAXED_SIMD_WASM } from './wasm/int8-gemm-relaxed-simd.wasm.js';
import { INT8_GEMM_RELAXED_DOT_ADD_WASM } from './wasm/int8-gemm-relaxed-dot-add.wasm.js';
import { kernelThreads } from './kernel-threads.js';

// The relaxed kernel's two builds on the MiniLM products (q/k/v, intermediate, output), interleaved: the same numbers bit for
// bit, and their times printed (the fused relaxed dot is the faster where the CPU has AVX-VNNI).
it('the fused-dot build of the relaxed int8 kernel equals the two-instruction build bit for bit on MiniLM-sized products', () => {
  const two = new WasmInt8Gemm('relaxed-simd', INT8_GEMM_RELAXED_SIMD_WASM, 63, 'int8-gemm-relaxed-simd');
  const fused = new WasmInt8Gemm('relaxed-simd', INT8_GEMM_RELAXED_SIMD_WASM, 63, 'int8-gemm-relaxed-simd', { base64: INT8_GEMM_RELAXED_DOT_ADD_WASM, threaded: 'int8-gemm-relaxed-dot-add' });
  const lines: string[] = [`threads ${JSON.stringify(kernelThreads())} fast ${fused.fastVariant}`];
  for (const [n, m, k] of [[1024, 1152, 384], [1024, 1536, 384], [1024, 384, 1536]] as const) {
    const x = Float32Array.from({ length: n * k }, (_, i) => Math.sin(i * 0.37));
    const b = Int8Array.from({ length: m * k }, (_, i) => ((i * 53) % 255) - 127);
    const scales = new Float32Array(m).fill(0.01);
    const times = { two: [] as number[], fused: [] as number[] };
    let same = true;
    for (let r = 0; r < 6; r++) {
      const outs: Float32Array[] = [];
      for (const [name, kernel] of (r % 2 ? [['two', two], ['fused', fused]] : [['fused', fused], ['two', two]]) as [keyof typeof times, WasmInt8Gemm][]) {
        const t = performance.now();
        outs.push(kernel.quantizedMultiply(x, b, { rows: n, cols: m, depth: k }, scales, undefined, 'ab'));
        times[name].push(performance.now() - t);
      }
      same &&= outs[0]!.every((v, i) => Object.is(v, outs[1]![i]));
      expect(same, `[${n}, ${m}, ${k}] run ${r}`).toBe(true);
    }
    const med = (a: number[]) => [...a].sort((p, q) => p - q)[a.length >> 1]!;
    lines.push(`[${n}, ${m}, ${k}]: two-step ${med(times.two).toFixed(2)} ms, fused ${med(times.fused).toFixed(2)} ms, ratio ${(med(times.fused) / med(times.two)).toFixed(3)}, identical ${same}`);
  }
  console.log(lines.join('\n'));
});
