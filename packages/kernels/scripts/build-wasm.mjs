// pnpm build:wasm — compiles csrc/*.c into the WebAssembly modules (int8 and float32 GEMM, fused attention, the tfjs fills) and writes each as a
// base64 TypeScript module under src/wasm/ (committed: Node, Vite and bundlers need no asset
// serving, and CI never needs clang). Needs clang + wasm-ld (14 or later) and, for the
// relaxed-SIMD module, wabt's wasm2wat/wat2wasm (apt-get install clang lld wabt).
//
// clang 14 has no builtins for the relaxed-SIMD instructions used: each relaxed source writes a
// placeholder instruction of the same operand and result types (i16x8.q15mulr_sat_s for
// i16x8.relaxed_dot_i8x16_i7x16_s, v128.bitselect for f32x4.relaxed_madd); this script disassembles
// the module, checks that the placeholder is present, that its plain twin (the same body built
// without the relaxed instruction) holds none of it, and that no other relaxed instruction is,
// rewrites it and reassembles. Each output records the SHA-256 of its sources (a test recomputes
// it, so a C change without a rebuild fails CI) and the tool versions.
//
// The tfjs fills (tfjs-fills.c) run on tfjs-backend-wasm's own memory: both variants import it
// (plain, and shared for tfjs' threaded binary), and this script checks that the module has no data
// and never touches its stack pointer, so it writes nothing but the tensors it is given. It also
// copies erf's coefficients from csrc/gelu.h into src/wasm/erf-coefficients.ts (for erfF32).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const CLANG_FLAGS = ['--target=wasm32', '-O3', '-msimd128', '-mbulk-memory', '-ffp-contract=off', '-nostdlib', '-Wl,--no-entry', '-Wl,--strip-all'];
// The threads variant imports a shared memory (all threads' instances of the module share it) and
// exports the stack pointer, so each thread's instance gets its own stack (src/kernel-threads.ts).
const THREADS_FLAGS = ['-matomics', '-mmutable-globals', '-Wl,--import-memory', '-Wl,--shared-memory', '-Wl,--max-memory=2147483648', '-Wl,--export=__stack_pointer'];
// wabt 1.0.32's name for i16x8.relaxed_dot_i8x16_i7x16_s (0xfd 0x112)
const RELAXED_DOT = { placeholder: 'i16x8.q15mulr_sat_s', instruction: 'i16x8.dot_i8x16_i7x16_s', twin: 'int8-gemm-simd' };
const RELAXED_MADD = { placeholder: 'v128.bitselect', instruction: 'f32x4.relaxed_madd', twin: 'f32-gemm-simd' };
// wabt 1.0.32's name for i32x4.relaxed_dot_i8x16_i7x16_add_s (0xfd 0x113)
const RELAXED_DOT_ADD = { placeholder: 'v128.bitselect', instruction: 'i32x4.dot_i8x16_i7x16_add_s', twin: 'int8-gemm-simd' };

const modules = [
  { name: 'int8-gemm-simd', constant: 'INT8_GEMM_SIMD', sources: ['int8-gemm-simd.c', 'int8-gemm.h', 'gelu.h', 'lanes.h', 'residual-layer-norm.h', 'layer-norm.h', 'rms-norm.h', 'silu-mul.h', 'exp.h'] },
  { name: 'int8-gemm-relaxed-simd', constant: 'INT8_GEMM_RELAXED_SIMD', sources: ['int8-gemm-relaxed-simd.c', 'int8-gemm.h', 'gelu.h', 'lanes.h', 'residual-layer-norm.h', 'layer-norm.h', 'rms-norm.h', 'silu-mul.h', 'exp.h'], relaxed: RELAXED_DOT },
  { name: 'int8-gemm-relaxed-dot-add', constant: 'INT8_GEMM_RELAXED_DOT_ADD', sources: ['int8-gemm-relaxed-dot-add.c', 'int8-gemm-relaxed-simd.c', 'int8-gemm.h', 'gelu.h', 'lanes.h', 'residual-layer-norm.h', 'layer-norm.h', 'rms-norm.h', 'silu-mul.h', 'exp.h'], relaxed: RELAXED_DOT_ADD },
  { name: 'f32-gemm-simd', constant: 'F32_GEMM_SIMD', sources: ['f32-gemm-simd.c', 'f32-gemm.h', 'gelu.h', 'lanes.h', 'residual-layer-norm.h', 'layer-norm.h'] },
  { name: 'f32-gemm-relaxed-simd', constant: 'F32_GEMM_RELAXED_SIMD', sources: ['f32-gemm-relaxed-simd.c', 'f32-gemm.h', 'gelu.h', 'lanes.h', 'residual-layer-norm.h', 'layer-norm.h'], relaxed: RELAXED_MADD },
  { name: 'fused-attention', constant: 'FUSED_ATTENTION', sources: ['fused-attention.c', 'attention-rows.h', 'exp.h'] },
  // on tfjs-wasm's memory, whose threaded binary's maximum may be 4 GiB
  { name: 'tfjs-fills', constant: 'TFJS_FILLS', sources: ['tfjs-fills.c', 'attention-rows.h', 'gelu.h', 'gelu-tanh.h', 'layer-norm.h', 'masked-softmax.h', 'rms-norm.h', 'rotary.h', 'silu-mul.h', 'exp.h'], importsMemory: true, flags: { '': ['-Wl,--import-memory'], '-threads': ['-matomics', '-mmutable-globals', '-Wl,--import-memory', '-Wl,--shared-memory', '-Wl,--max-memory=4294967296'] } },
];
const PLACEHOLDERS = [RELAXED_DOT, RELAXED_MADD, RELAXED_DOT_ADD];

const run = (command, args) => execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const clangVersion = run('clang', ['--version']).split('\n')[0].trim();
const wabtVersion = run('wat2wasm', ['--version']).trim();
const work = mkdtempSync(join(tmpdir(), 'attnkit-kernels-'));

/** SHA-256 over the sources, each as `name\n<text>\n` (what the freshness test recomputes). */
export function sourceHash(sources, read) {
  const hash = createHash('sha256');
  for (const file of sources) hash.update(`${file}\n${read(file)}\n`);
  return hash.digest('hex');
}

/** src/wasm/erf-coefficients.ts: the `#define ERF_*` coefficients of csrc/gelu.h as ERF_F32 (c0, a, b, q, lowest degree first). */
export function erfCoefficientsModule(header) {
  const defines = new Map([...header.matchAll(/^#define (ERF_[A-Z]+\d*) (\S+)f$/gm)].map((m) => [m[1], m[2]]));
  const series = (letter) => [...defines].filter(([name]) => new RegExp(`^ERF_${letter}\\d+$`).test(name)).sort(([a], [b]) => Number(a.slice(5)) - Number(b.slice(5))).map(([, v]) => v);
  const [a, b, q] = ['A', 'B', 'Q'].map(series);
  if (!defines.has('ERF_C0') || a.length !== 6 || b.length !== 9 || q.length !== 5) throw new Error('csrc/gelu.h: expected #define ERF_C0, ERF_A0..5, ERF_B0..8, ERF_Q0..4');
  return [
    '// Generated by scripts/build-wasm.mjs (pnpm build:wasm) from the #define ERF_* lines of csrc/gelu.h. Do not edit.',
    '',
    '/** The float32 erf coefficients of csrc/gelu.h: 2/√π, then A(t), B(u), Q(u), lowest degree first. */',
    'export const ERF_COEFFICIENTS = {',
    `  c0: ${defines.get('ERF_C0')},`,
    `  a: [${a.join(', ')}],`,
    `  b: [${b.join(', ')}],`,
    `  q: [${q.join(', ')}],`,
    '} as const;',
    '',
  ].join('\n');
}

try {
  const plainWats = new Map(); // name -> the plain modules' disassembly (a relaxed module's twin is built before it)
  for (const module of modules) {
    const variants = [['', []], ['-threads', THREADS_FLAGS]].map(([suffix, threadFlags]) => {
      const flags = module.flags?.[suffix] ?? threadFlags;
      const out = join(work, `${module.name}${suffix}.wasm`);
      run('clang', [...CLANG_FLAGS, ...flags, '-o', out, join(root, 'csrc', module.sources[0])]);
      const wat = run('wasm2wat', ['--enable-threads', out]);
      const relaxed = module.relaxed;
      const placeholders = relaxed ? wat.split(relaxed.placeholder).length - 1 : 0;
      if (relaxed) {
        const twin = plainWats.get(`${relaxed.twin}${suffix}`);
        if (twin === undefined) throw new Error(`${module.name}: its plain twin ${relaxed.twin} must be built first`);
        if (twin.includes(relaxed.placeholder)) throw new Error(`${module.name}: the plain twin ${relaxed.twin} holds ${relaxed.placeholder} itself, so the placeholder is ambiguous`);
        if (placeholders === 0) throw new Error(`${module.name}: no ${relaxed.placeholder} placeholder in the compiled module`);
        if (/relaxed|laneselect|\.fma|\.fms/.test(wat)) throw new Error(`${module.name}: clang emitted another relaxed instruction; only the rewritten placeholder may be relaxed`);
        const rewritten = join(work, `${module.name}${suffix}.wat`);
        writeFileSync(rewritten, wat.replaceAll(relaxed.placeholder, relaxed.instruction));
        run('wat2wasm', ['--enable-relaxed-simd', '--enable-threads', rewritten, '-o', out]);
      } else {
        if (/relaxed/.test(wat)) throw new Error(`${module.name}: the plain SIMD module must not hold relaxed instructions`);
        if (PLACEHOLDERS.some((p) => p.twin === module.name && wat.includes(p.placeholder))) throw new Error(`${module.name}: holds the placeholder its relaxed twin rewrites`);
        plainWats.set(`${module.name}${suffix}`, wat);
      }
      if (module.name.includes('-gemm-') && wat.includes('memory.copy')) throw new Error(`${module.name}: clang made a memcpy (memory.copy, which V8 runs as a call out of the module): load and store lanes instead (csrc/lanes.h)`);
      if (module.importsMemory && (/\(start|\(data|global\.(get|set)/.test(wat) || !/\(import "env" "memory"/.test(wat))) throw new Error(`${module.name}: a module on tfjs-wasm's memory must import it and have no data, start function or stack use`);
      if (suffix !== '' && /\(start|\(data/.test(wat)) throw new Error(`${module.name}: the threads variant must have no data segments or start function (each thread instantiates it on the shared memory)`);
      return { bytes: readFileSync(out), placeholders };
    });
    const [{ bytes, placeholders }, { bytes: threadBytes }] = variants;
    const sha = sourceHash(module.sources, (file) => readFileSync(join(root, 'csrc', file), 'utf8'));
    const text = [
      `// Generated by scripts/build-wasm.mjs (pnpm build:wasm) from csrc/${module.sources.join(', csrc/')}. Do not edit.`,
      `// ${clangVersion}; wabt ${wabtVersion}; clang ${CLANG_FLAGS.join(' ')} (threads variant also ${THREADS_FLAGS.join(' ')})${module.relaxed ? `; ${module.relaxed.placeholder} -> ${module.relaxed.instruction} (${placeholders}x)` : ''}.`,
      '',
      `/** SHA-256 of the C sources this module was built from (recomputed by a test). */`,
      `export const ${module.constant}_SOURCE_SHA256 = '${sha}';`,
      '',
      module.importsMemory
        ? `/** The ${module.name} WebAssembly module (${bytes.length} bytes), base64: imports tfjs-wasm's memory (env.memory). */`
        : `/** The ${module.name} WebAssembly module (${bytes.length} bytes), base64. */`,
      `export const ${module.constant}_WASM = '${bytes.toString('base64')}';`,
      '',
      module.importsMemory
        ? `/** The same kernels for tfjs-wasm's threaded binary (${threadBytes.length} bytes), base64: imports its shared memory (env.memory). */`
        : `/** The same kernels for threads (${threadBytes.length} bytes), base64: imports a shared memory (env.memory), exports __stack_pointer. */`,
      `export const ${module.constant}_THREADS_WASM = '${threadBytes.toString('base64')}';`,
      '',
    ].join('\n');
    writeFileSync(join(root, 'src', 'wasm', `${module.name}.wasm.ts`), text);
    console.log(`${module.name}: ${bytes.length} bytes${module.relaxed ? `, ${placeholders} x ${module.relaxed.instruction}` : ''}`);
  }
  writeFileSync(join(root, 'src', 'wasm', 'erf-coefficients.ts'), erfCoefficientsModule(readFileSync(join(root, 'csrc', 'gelu.h'), 'utf8')));
  console.log('erf-coefficients: from csrc/gelu.h');
} finally {
  rmSync(work, { recursive: true, force: true });
}
