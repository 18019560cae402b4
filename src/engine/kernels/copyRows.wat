;; Strided row copies on tfjs-backend-wasm's heap: the wasm Concat's inner loop.
;;
;; copyRows(src, dst, rows, bytes, srcStride, dstStride): for r < rows, copy `bytes` bytes from
;; src + r * srcStride to dst + r * dstStride (byte addresses). One memory.copy per row: tfjs's
;; Concat makes a typed-array view per row and input instead, which for the KV cache's rows of
;; 8-104 floats costs more than the copying. A copy, so every bit pattern is kept.
;;
;; The memory is tfjs-backend-wasm's own, imported; scripts/build-wasm-kernels.mjs writes a
;; second build with a shared memory for its threaded build.
(module
  (import "env" "memory" MEMORY)
  (func (export "copyRows")
    (param $src i32) (param $dst i32) (param $rows i32) (param $bytes i32)
    (param $srcStride i32) (param $dstStride i32)
    (block $done (loop $row
      (br_if $done (i32.eqz (local.get $rows)))
      (memory.copy (local.get $dst) (local.get $src) (local.get $bytes))
      (local.set $src (i32.add (local.get $src) (local.get $srcStride)))
      (local.set $dst (i32.add (local.get $dst) (local.get $dstStride)))
      (local.set $rows (i32.sub (local.get $rows) (i32.const 1)))
      (br $row)))))
