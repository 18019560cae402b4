;; A sum over a middle block of axes on tfjs-backend-wasm's heap, for ./sum.ts.
;;
;; sumMiddle(x, out, outer, r, inner): x is [outer, r, inner] floats, out [outer, inner];
;;   out[o, j] = (((0 + x[o, 0, j]) + x[o, 1, j]) + ...) + x[o, r - 1, j].
;; tfjs-backend-wasm's Sum transposes the reduced axes innermost first (a copy of x) and then sums
;; each output's run from 0 in order; here the same sums, in the same order, accumulate in the
;; output row while x is read once in memory order. Four lanes are four outputs j: no output's
;; order changes. Addresses are bytes.
;;
;; The memory is tfjs-backend-wasm's own, imported; scripts/build-wasm-kernels.mjs writes a
;; second build with a shared memory for its threaded build.
(module
  (import "env" "memory" MEMORY)
  (func (export "sumMiddle")
    (param $x i32) (param $out i32) (param $outer i32) (param $r i32) (param $inner i32)
    (local $rowBytes i32) (local $inner4 i32) (local $o i32) (local $k i32) (local $j i32)
    (local $dst i32) (local $src i32)
    (local.set $rowBytes (i32.shl (local.get $inner) (i32.const 2)))
    (local.set $inner4 (i32.shl (i32.and (local.get $inner) (i32.const -4)) (i32.const 2)))
    (block $done (loop $outerLoop
      (br_if $done (i32.ge_u (local.get $o) (local.get $outer)))
      (memory.fill (local.get $out) (i32.const 0) (local.get $rowBytes)) ;; +0
      (local.set $k (i32.const 0))
      (block $rDone (loop $rLoop
        (br_if $rDone (i32.ge_u (local.get $k) (local.get $r)))
        (local.set $j (i32.const 0))
        (block $fourDone (loop $four
          (br_if $fourDone (i32.ge_u (local.get $j) (local.get $inner4)))
          (local.set $dst (i32.add (local.get $out) (local.get $j)))
          (v128.store (local.get $dst)
            (f32x4.add (v128.load (local.get $dst)) (v128.load (i32.add (local.get $x) (local.get $j)))))
          (local.set $j (i32.add (local.get $j) (i32.const 16)))
          (br $four)))
        (block $oneDone (loop $one
          (br_if $oneDone (i32.ge_u (local.get $j) (local.get $rowBytes)))
          (local.set $dst (i32.add (local.get $out) (local.get $j)))
          (f32.store (local.get $dst)
            (f32.add (f32.load (local.get $dst)) (f32.load (i32.add (local.get $x) (local.get $j)))))
          (local.set $j (i32.add (local.get $j) (i32.const 4)))
          (br $one)))
        (local.set $x (i32.add (local.get $x) (local.get $rowBytes)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $rLoop)))
      (local.set $out (i32.add (local.get $out) (local.get $rowBytes)))
      (local.set $o (i32.add (local.get $o) (i32.const 1)))
      (br $outerLoop)))))
