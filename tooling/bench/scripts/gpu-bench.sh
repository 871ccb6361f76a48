#!/usr/bin/env bash
# bench:peer's GPU rows in headless Chromium, for a machine with a GPU: attnkit webgl and webgpu (fp32) against
# transformers.js `device: 'webgpu'` (fp32 and q8), one round.
# No network and nothing installed: it checks that the workspace install, the bench's ONNX Runtime and
# transformers.js (tooling/bench/onnx), the models (tooling/bench/models) and a Chromium are here, then runs
#   bench:peer --only chromium --gpu --workload embed --engines 'webgl|webgpu' --rounds 1 --webgl-runs 3
# (GPU_BENCH_RUNS=N changes the 3 warm runs per engine; GPU_BENCH_ENGINES=REGEX the engines, e.g. '.' for all of
# Chromium's, wasm rows included)
# under `timeout 480` (the same entry as `pnpm --filter @attnkit/bench bench:peer`, without its ONNX install step).
# Writes to the folder given as $1 (else $OUT, else tooling/bench/models/gpu): gpu-results.json (raw numbers),
# gpu-report.md (the report; docs/ is left alone) and gpu-bench.log. Rows whose WebGPU adapter or WebGL renderer
# is software (SwiftShader, llvmpipe) are not run and say "not measured on a GPU" (ATTNKIT_GPU_ROWS_ON_SOFTWARE=1 runs
# them anyway, to check they work; ATTNKIT_WEBGPU_SWIFTSHADER=1 gives WebGPU SwiftShader's adapter for that).
# Usage: tooling/bench/scripts/gpu-bench.sh [out-folder]     (exit 0: done; 2: a prerequisite is missing)
set -uo pipefail
bench=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-${OUT:-$bench/models/gpu}}
mkdir -p "$out" && out=$(cd "$out" && pwd)
log="$out/gpu-bench.log"
: >"$log"
say() { echo "gpu-bench: $*" | tee -a "$log" >&2; }
missing() { say "missing: $*"; exit 2; }

# prerequisites (all local)
[ -x "$bench/node_modules/.bin/tsx" ] || missing "the workspace install (pnpm install --frozen-lockfile --prefer-offline)"
for file in config.json model.safetensors tokenizer.json tokenizer_config.json onnx/model.onnx onnx/model_quantized.onnx peer-reference.json; do
  [ -f "$bench/models/minilm-shaped/$file" ] || missing "tooling/bench/models/minilm-shaped/$file (.venv-ref/bin/python tooling/bench/scripts/make_bench_models.py, or copy the folder)"
done
transformers="$bench/onnx/node_modules/@huggingface/transformers"
[ -f "$transformers/dist/transformers.web.js" ] || missing "transformers.js in tooling/bench/onnx (pnpm --filter @attnkit/bench onnx, with the network, beforehand)"
ort=$(cd "$(readlink -f "$transformers")/../.." && pwd)/onnxruntime-web/dist
[ -f "$ort/ort-wasm-simd-threaded.asyncify.wasm" ] || missing "transformers.js' onnxruntime-web files ($ort)"
chromium=${ATTNKIT_CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || command -v google-chrome-stable || true)}
[ -n "$chromium" ] && [ -x "$chromium" ] || missing "Chromium (apt-get install chromium, or ATTNKIT_CHROMIUM=/path/to/chrome)"
export ATTNKIT_CHROMIUM="$chromium"

say "$(date -u +%FT%TZ) Chromium: $("$chromium" --version 2>/dev/null || echo "$chromium"); Node $(node --version); $(nproc) CPUs"
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | sed 's/^/gpu-bench: nvidia-smi: /' | tee -a "$log" >&2
else
  say "no nvidia-smi (the report says whether Chromium got a GPU)"
fi

cd "$bench"
started=$(date +%s)
timeout 480 node_modules/.bin/tsx --conditions=@attnkit/source src/peer/bench-peer.ts \
  --only chromium --gpu --workload embed --engines "${GPU_BENCH_ENGINES:-webgl|webgpu}" --rounds 1 --runs "${GPU_BENCH_RUNS:-3}" --webgl-runs "${GPU_BENCH_RUNS:-3}" \
  --out-json "$out/gpu-results.json" --out-md "$out/gpu-report.md" >>"$log" 2>&1
rc=$?
say "bench:peer exit $rc after $(($(date +%s) - started)) s"
if [ $rc = 124 ] && [ -f "$out/gpu-results.json" ]; then # cut by the timeout: the report of the engines that finished (the JSON is written after each)
  say "timeout 480 s: the report covers the engines that finished"
  timeout 60 node_modules/.bin/tsx --conditions=@attnkit/source src/peer/bench-peer.ts --from-results --out-json "$out/gpu-results.json" --out-md "$out/gpu-report.md" >/dev/null 2>>"$log"
fi
[ -f "$out/gpu-results.json" ] && say "wrote $out/gpu-results.json and $out/gpu-report.md"
grep -h 'WebGPU adapter:' "$log" >&2
grep -hE '^\| Chromium' "$out/gpu-report.md" 2>/dev/null >&2
exit $rc
