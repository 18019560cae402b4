;; Batched small matMul for tfjs-backend-wasm's heap, in WebAssembly SIMD.
;;
;; out[b] = A[b] @ B[b] for b < batch, A[b] M x K, B[b] K x N, out row-major [batch, M, N].
;; A and B are read through byte strides, so either may be transposed in memory; a batch
;; stride of 0 broadcasts a single matrix.
;;
;; Numerics: every output element is summed exactly as tfjs-backend-wasm 4.22's
;; slow_batch_matmul (src/cc/batch_mat_mul_impl.cc) does: in blocks of 48 along K, each
;; block's sum starting at +0 and adding a[i,k] * b[k,j] in increasing k (a rounded f32
;; product, then a rounded f32 add: wasm has no fused multiply-add), each block's sum added to
;; the output in order. The four lanes of a vector are four output columns j, so SIMD changes
;; no element's order and the results are equal bit for bit. (Where both operands of an add are
;; NaN, which one comes out (its sign) follows the operand order that V8 gives tfjs's loops; we
;; put the new term first, as most of them do, and the tests compare every NaN as one value.)
;;
;; A row's columns are done 4, 2 or 1 vectors at a time (16, 8 or 4 columns: the attention's
;; 14 and 8), sharing the splat of a[i][k] and the loop's overhead.
;;
;; B is read one row of 4 columns at a time. When its columns are not contiguous (transposeB)
;; or N is not a multiple of 4, each batch's B is first packed into `pack` (K x N4 floats, N4 =
;; N rounded up to 4, the padding zero) so that every vector load stays inside that buffer.
;;
;; The memory is tfjs-backend-wasm's own, imported; scripts/build-wasm-kernels.mjs writes a
;; second build with a shared memory for its threaded build (MEMORY below is replaced).
(module
  (import "env" "memory" MEMORY)
  ;; Store v's first min(rem, 4) lanes at op (rem >= 1); returns the address after them.
  (func $storeLast (param $op i32) (param $v v128) (param $rem i32) (result i32)
    (if (i32.ge_u (local.get $rem) (i32.const 4))
      (then
        (v128.store align=4 (local.get $op) (local.get $v))
        (return (i32.add (local.get $op) (i32.const 16)))))
    (if (i32.ge_u (local.get $rem) (i32.const 2))
      (then
        (v128.store64_lane align=4 0 (local.get $op) (local.get $v))
        (if (i32.eq (local.get $rem) (i32.const 3))
          (then (f32.store offset=8 (local.get $op) (f32x4.extract_lane 2 (local.get $v))))))
      (else (v128.store32_lane 0 (local.get $op) (local.get $v))))
    (i32.add (local.get $op) (i32.shl (local.get $rem) (i32.const 2))))
  (func (export "bmm")
    (param $a i32) (param $b i32) (param $out i32) (param $pack i32)
    (param $batch i32) (param $m i32) (param $k i32) (param $n i32)
    ;; byte strides: A per batch, per row i, per shared index k; B per batch, per k, per column j
    (param $aBatch i32) (param $aRow i32) (param $aCol i32)
    (param $bBatch i32) (param $bRow i32) (param $bCol i32)
    (local $bi i32) (local $i i32) (local $jv i32) (local $nv i32)
    (local $kk i32) (local $k0 i32) (local $kend i32) (local $j i32)
    (local $aBase i32) (local $bBase i32) (local $bp i32) (local $bs i32)
    (local $arow i32) (local $orow i32) (local $ap i32) (local $bq i32) (local $op i32)
    (local $x v128)
    (local $acc0 v128) (local $acc1 v128) (local $acc2 v128) (local $acc3 v128)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)
    (local.set $nv (i32.shr_u (i32.add (local.get $n) (i32.const 3)) (i32.const 2)))
    ;; The packed rows' padding columns are zeroed once; packing writes only columns < N.
    (if (local.get $pack)
      (then
        (local.set $kk (i32.const 0))
        (block $zdone (loop $zk
          (br_if $zdone (i32.ge_u (local.get $kk) (local.get $k)))
          (local.set $j (local.get $n))
          (block $zjdone (loop $zj
            (br_if $zjdone (i32.ge_u (local.get $j) (i32.shl (local.get $nv) (i32.const 2))))
            (f32.store
              (i32.add (local.get $pack)
                (i32.shl (i32.add (i32.mul (local.get $kk) (i32.shl (local.get $nv) (i32.const 2))) (local.get $j)) (i32.const 2)))
              (f32.const 0))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $zj)))
          (local.set $kk (i32.add (local.get $kk) (i32.const 1)))
          (br $zk)))))
    (local.set $op (local.get $out))
    (local.set $bi (i32.const 0))
    (block $bdone (loop $bl
      (br_if $bdone (i32.ge_u (local.get $bi) (local.get $batch)))
      (local.set $aBase (i32.add (local.get $a) (i32.mul (local.get $bi) (local.get $aBatch))))
      (local.set $bBase (i32.add (local.get $b) (i32.mul (local.get $bi) (local.get $bBatch))))
      (if (local.get $pack)
        (then
          ;; pack[kk][j] = B[kk][j], row stride N4 floats
          (local.set $bs (i32.shl (local.get $nv) (i32.const 4)))
          (local.set $bp (local.get $pack))
          (local.set $kk (i32.const 0))
          (block $pdone (loop $pk
            (br_if $pdone (i32.ge_u (local.get $kk) (local.get $k)))
            (local.set $bq (i32.add (local.get $bBase) (i32.mul (local.get $kk) (local.get $bRow))))
            (local.set $ap (i32.add (local.get $pack) (i32.mul (local.get $kk) (local.get $bs))))
            (local.set $j (i32.const 0))
            (block $pjdone (loop $pj
              (br_if $pjdone (i32.ge_u (local.get $j) (local.get $n)))
              (f32.store (local.get $ap) (f32.load (local.get $bq)))
              (local.set $ap (i32.add (local.get $ap) (i32.const 4)))
              (local.set $bq (i32.add (local.get $bq) (local.get $bCol)))
              (local.set $j (i32.add (local.get $j) (i32.const 1)))
              (br $pj)))
            (local.set $kk (i32.add (local.get $kk) (i32.const 1)))
            (br $pk))))
        (else
          (local.set $bp (local.get $bBase))
          (local.set $bs (local.get $bRow))))
      (local.set $i (i32.const 0))
      (block $idone (loop $il
        (br_if $idone (i32.ge_u (local.get $i) (local.get $m)))
        (local.set $arow (i32.add (local.get $aBase) (i32.mul (local.get $i) (local.get $aRow))))
        (local.set $jv (i32.const 0))
        (block $jdone (loop $jl
          (br_if $jdone (i32.ge_u (local.get $jv) (local.get $nv)))
          (if (i32.ge_u (i32.sub (local.get $nv) (local.get $jv)) (i32.const 4))
            (then
            ;; 4 vectors of 4 columns, one splat of a[i][k] for all of them
            (local.set $acc0 (v128.const i32x4 0 0 0 0))
            (local.set $acc1 (v128.const i32x4 0 0 0 0))
            (local.set $acc2 (v128.const i32x4 0 0 0 0))
            (local.set $acc3 (v128.const i32x4 0 0 0 0))
            (local.set $k0 (i32.const 0))
            (block $kbdone4 (loop $kb4
              (br_if $kbdone4 (i32.ge_u (local.get $k0) (local.get $k)))
              (local.set $kend (i32.add (local.get $k0) (i32.const 48)))
              (if (i32.gt_u (local.get $kend) (local.get $k)) (then (local.set $kend (local.get $k))))
              (local.set $s0 (v128.const i32x4 0 0 0 0))
              (local.set $s1 (v128.const i32x4 0 0 0 0))
              (local.set $s2 (v128.const i32x4 0 0 0 0))
              (local.set $s3 (v128.const i32x4 0 0 0 0))
              (local.set $ap (i32.add (local.get $arow) (i32.mul (local.get $k0) (local.get $aCol))))
              (local.set $bq (i32.add (i32.add (local.get $bp) (i32.mul (local.get $k0) (local.get $bs))) (i32.shl (local.get $jv) (i32.const 4))))
              (local.set $kk (local.get $k0))
              (block $kdone4 (loop $kl4
                (br_if $kdone4 (i32.ge_u (local.get $kk) (local.get $kend)))
                (local.set $x (f32x4.splat (f32.load (local.get $ap))))
                (local.set $s0 (f32x4.add (f32x4.mul (local.get $x) (v128.load align=4 (local.get $bq))) (local.get $s0)))
                (local.set $s1 (f32x4.add (f32x4.mul (local.get $x) (v128.load offset=16 align=4 (local.get $bq))) (local.get $s1)))
                (local.set $s2 (f32x4.add (f32x4.mul (local.get $x) (v128.load offset=32 align=4 (local.get $bq))) (local.get $s2)))
                (local.set $s3 (f32x4.add (f32x4.mul (local.get $x) (v128.load offset=48 align=4 (local.get $bq))) (local.get $s3)))
                (local.set $ap (i32.add (local.get $ap) (local.get $aCol)))
                (local.set $bq (i32.add (local.get $bq) (local.get $bs)))
                (local.set $kk (i32.add (local.get $kk) (i32.const 1)))
                (br $kl4)))
              (local.set $acc0 (f32x4.add (local.get $s0) (local.get $acc0)))
              (local.set $acc1 (f32x4.add (local.get $s1) (local.get $acc1)))
              (local.set $acc2 (f32x4.add (local.get $s2) (local.get $acc2)))
              (local.set $acc3 (f32x4.add (local.get $s3) (local.get $acc3)))
              (local.set $k0 (local.get $kend))
              (br $kb4)))
            ;; every vector but a group's last is whole; the last may end the row
            (v128.store align=4 (local.get $op) (local.get $acc0))
            (local.set $op (i32.add (local.get $op) (i32.const 16)))
            (v128.store align=4 (local.get $op) (local.get $acc1))
            (local.set $op (i32.add (local.get $op) (i32.const 16)))
            (v128.store align=4 (local.get $op) (local.get $acc2))
            (local.set $op (i32.add (local.get $op) (i32.const 16)))
            (local.set $op (call $storeLast (local.get $op) (local.get $acc3)
              (i32.sub (local.get $n) (i32.shl (i32.add (local.get $jv) (i32.const 3)) (i32.const 2)))))
            (local.set $jv (i32.add (local.get $jv) (i32.const 4))))
            (else (if (i32.ge_u (i32.sub (local.get $nv) (local.get $jv)) (i32.const 2))
              (then
            ;; 2 vectors of 4 columns, one splat of a[i][k] for all of them
            (local.set $acc0 (v128.const i32x4 0 0 0 0))
            (local.set $acc1 (v128.const i32x4 0 0 0 0))
            (local.set $k0 (i32.const 0))
            (block $kbdone2 (loop $kb2
              (br_if $kbdone2 (i32.ge_u (local.get $k0) (local.get $k)))
              (local.set $kend (i32.add (local.get $k0) (i32.const 48)))
              (if (i32.gt_u (local.get $kend) (local.get $k)) (then (local.set $kend (local.get $k))))
              (local.set $s0 (v128.const i32x4 0 0 0 0))
              (local.set $s1 (v128.const i32x4 0 0 0 0))
              (local.set $ap (i32.add (local.get $arow) (i32.mul (local.get $k0) (local.get $aCol))))
              (local.set $bq (i32.add (i32.add (local.get $bp) (i32.mul (local.get $k0) (local.get $bs))) (i32.shl (local.get $jv) (i32.const 4))))
              (local.set $kk (local.get $k0))
              (block $kdone2 (loop $kl2
                (br_if $kdone2 (i32.ge_u (local.get $kk) (local.get $kend)))
                (local.set $x (f32x4.splat (f32.load (local.get $ap))))
                (local.set $s0 (f32x4.add (f32x4.mul (local.get $x) (v128.load align=4 (local.get $bq))) (local.get $s0)))
                (local.set $s1 (f32x4.add (f32x4.mul (local.get $x) (v128.load offset=16 align=4 (local.get $bq))) (local.get $s1)))
                (local.set $ap (i32.add (local.get $ap) (local.get $aCol)))
                (local.set $bq (i32.add (local.get $bq) (local.get $bs)))
                (local.set $kk (i32.add (local.get $kk) (i32.const 1)))
                (br $kl2)))
              (local.set $acc0 (f32x4.add (local.get $s0) (local.get $acc0)))
              (local.set $acc1 (f32x4.add (local.get $s1) (local.get $acc1)))
              (local.set $k0 (local.get $kend))
              (br $kb2)))
            ;; every vector but a group's last is whole; the last may end the row
            (v128.store align=4 (local.get $op) (local.get $acc0))
            (local.set $op (i32.add (local.get $op) (i32.const 16)))
            (local.set $op (call $storeLast (local.get $op) (local.get $acc1)
              (i32.sub (local.get $n) (i32.shl (i32.add (local.get $jv) (i32.const 1)) (i32.const 2)))))
            (local.set $jv (i32.add (local.get $jv) (i32.const 2))))
              (else
            ;; 1 vector of 4 columns, one splat of a[i][k] for all of them
            (local.set $acc0 (v128.const i32x4 0 0 0 0))
            (local.set $k0 (i32.const 0))
            (block $kbdone1 (loop $kb1
              (br_if $kbdone1 (i32.ge_u (local.get $k0) (local.get $k)))
              (local.set $kend (i32.add (local.get $k0) (i32.const 48)))
              (if (i32.gt_u (local.get $kend) (local.get $k)) (then (local.set $kend (local.get $k))))
              (local.set $s0 (v128.const i32x4 0 0 0 0))
              (local.set $ap (i32.add (local.get $arow) (i32.mul (local.get $k0) (local.get $aCol))))
              (local.set $bq (i32.add (i32.add (local.get $bp) (i32.mul (local.get $k0) (local.get $bs))) (i32.shl (local.get $jv) (i32.const 4))))
              (local.set $kk (local.get $k0))
              (block $kdone1 (loop $kl1
                (br_if $kdone1 (i32.ge_u (local.get $kk) (local.get $kend)))
                (local.set $x (f32x4.splat (f32.load (local.get $ap))))
                (local.set $s0 (f32x4.add (f32x4.mul (local.get $x) (v128.load align=4 (local.get $bq))) (local.get $s0)))
                (local.set $ap (i32.add (local.get $ap) (local.get $aCol)))
                (local.set $bq (i32.add (local.get $bq) (local.get $bs)))
                (local.set $kk (i32.add (local.get $kk) (i32.const 1)))
                (br $kl1)))
              (local.set $acc0 (f32x4.add (local.get $s0) (local.get $acc0)))
              (local.set $k0 (local.get $kend))
              (br $kb1)))
            ;; every vector but a group's last is whole; the last may end the row
            (local.set $op (call $storeLast (local.get $op) (local.get $acc0)
              (i32.sub (local.get $n) (i32.shl (i32.add (local.get $jv) (i32.const 0)) (i32.const 2)))))
            (local.set $jv (i32.add (local.get $jv) (i32.const 1)))))))
          (br $jl)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $il)))
      (local.set $bi (i32.add (local.get $bi) (i32.const 1)))
      (br $bl)))))
