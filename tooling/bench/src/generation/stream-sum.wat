;; The bandwidth probe of the generation bench (bandwidth.ts embeds its bytes; rebuild with
;; `wat2wasm --enable-threads stream-sum.wat -o /dev/stdout | base64 -w0`): sums the float32s of
;; memory[start, end) with wasm SIMD, 4 independent f32x4 accumulators, 64 bytes a step, so that the loop
;; is bound by the memory reads, not by the additions. `end - start` must be a multiple of 64.
(module
  (import "env" "memory" (memory 1 65536 shared))
  (func (export "sum") (param $p i32) (param $end i32) (result f32)
    (local $a v128) (local $b v128) (local $c v128) (local $d v128)
    (block $done
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (loop $next
        (local.set $a (f32x4.add (local.get $a) (v128.load offset=0 (local.get $p))))
        (local.set $b (f32x4.add (local.get $b) (v128.load offset=16 (local.get $p))))
        (local.set $c (f32x4.add (local.get $c) (v128.load offset=32 (local.get $p))))
        (local.set $d (f32x4.add (local.get $d) (v128.load offset=48 (local.get $p))))
        (local.set $p (i32.add (local.get $p) (i32.const 64)))
        (br_if $next (i32.lt_u (local.get $p) (local.get $end)))))
    (local.set $a (f32x4.add (f32x4.add (local.get $a) (local.get $b)) (f32x4.add (local.get $c) (local.get $d))))
    (f32.add (f32.add (f32x4.extract_lane 0 (local.get $a)) (f32x4.extract_lane 1 (local.get $a)))
             (f32.add (f32x4.extract_lane 2 (local.get $a)) (f32x4.extract_lane 3 (local.get $a))))))
