;; LabLayerNorm's two loops on tfjs-backend-wasm's heap; ./layerNorm.ts says what
;; they compute and keeps the same steps in JavaScript as the reference. Addresses are bytes.
;;
;; lnStats(x, mean, varEps, rows, d, eps): per row of d floats, mean = (running sum from 0) / d and
;;   varEps = ((running sum of (x - mean)^2) / d) + eps: tfjs-wasm's Mean, Sub, Square, Mean and
;;   Add, in their order. Scalar: each sum is one chain in order, as tfjs's.
;; lnApply(x, mean, rs, gain, bias, y, rows, d, per): y = ((x - mean) * rs) * gain + bias, with
;;   row r's gain and bias the (r / per)-th of gain's rows. Elementwise, so 4 lanes along d.
;;
;; The memory is tfjs-backend-wasm's own, imported; scripts/build-wasm-kernels.mjs writes a
;; second build with a shared memory for its threaded build.
(module
  (import "env" "memory" MEMORY)

  (func (export "lnStats")
    (param $x i32) (param $mean i32) (param $varEps i32) (param $rows i32) (param $d i32) (param $eps f32)
    (local $p i32) (local $end i32) (local $s f32) (local $m f32) (local $c f32) (local $n f32)
    (local.set $n (f32.convert_i32_u (local.get $d)))
    (block $done (loop $row
      (br_if $done (i32.eqz (local.get $rows)))
      (local.set $end (i32.add (local.get $x) (i32.shl (local.get $d) (i32.const 2))))
      (local.set $s (f32.const 0))
      (local.set $p (local.get $x))
      (block $sumDone (loop $sum
        (br_if $sumDone (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $s (f32.add (local.get $s) (f32.load (local.get $p))))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (br $sum)))
      (local.set $m (f32.div (local.get $s) (local.get $n)))
      (local.set $s (f32.const 0))
      (local.set $p (local.get $x))
      (block $varDone (loop $var
        (br_if $varDone (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $c (f32.sub (f32.load (local.get $p)) (local.get $m)))
        (local.set $s (f32.add (local.get $s) (f32.mul (local.get $c) (local.get $c))))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (br $var)))
      (f32.store (local.get $mean) (local.get $m))
      (f32.store (local.get $varEps) (f32.add (f32.div (local.get $s) (local.get $n)) (local.get $eps)))
      (local.set $x (local.get $end))
      (local.set $mean (i32.add (local.get $mean) (i32.const 4)))
      (local.set $varEps (i32.add (local.get $varEps) (i32.const 4)))
      (local.set $rows (i32.sub (local.get $rows) (i32.const 1)))
      (br $row))))

  (func (export "lnApply")
    (param $x i32) (param $mean i32) (param $rs i32) (param $gain i32) (param $bias i32) (param $y i32)
    (param $rows i32) (param $d i32) (param $per i32)
    (local $r i32) (local $i i32) (local $d4 i32) (local $g i32) (local $b i32)
    (local $m f32) (local $s f32) (local $mv v128) (local $sv v128)
    (local.set $d4 (i32.and (local.get $d) (i32.const -4)))
    (block $done (loop $row
      (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
      ;; this row's model: gain and bias rows (r / per)
      (local.set $g (i32.add (local.get $gain)
        (i32.shl (i32.mul (i32.div_u (local.get $r) (local.get $per)) (local.get $d)) (i32.const 2))))
      (local.set $b (i32.add (local.get $bias)
        (i32.shl (i32.mul (i32.div_u (local.get $r) (local.get $per)) (local.get $d)) (i32.const 2))))
      (local.set $m (f32.load (local.get $mean)))
      (local.set $s (f32.load (local.get $rs)))
      (local.set $mv (f32x4.splat (local.get $m)))
      (local.set $sv (f32x4.splat (local.get $s)))
      (local.set $i (i32.const 0))
      (block $fourDone (loop $four
        (br_if $fourDone (i32.ge_u (local.get $i) (local.get $d4)))
        (v128.store (local.get $y)
          (f32x4.add
            (f32x4.mul
              (f32x4.mul (f32x4.sub (v128.load (local.get $x)) (local.get $mv)) (local.get $sv))
              (v128.load (local.get $g)))
            (v128.load (local.get $b))))
        (local.set $x (i32.add (local.get $x) (i32.const 16)))
        (local.set $y (i32.add (local.get $y) (i32.const 16)))
        (local.set $g (i32.add (local.get $g) (i32.const 16)))
        (local.set $b (i32.add (local.get $b) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $four)))
      (block $oneDone (loop $one
        (br_if $oneDone (i32.ge_u (local.get $i) (local.get $d)))
        (f32.store (local.get $y)
          (f32.add
            (f32.mul
              (f32.mul (f32.sub (f32.load (local.get $x)) (local.get $m)) (local.get $s))
              (f32.load (local.get $g)))
            (f32.load (local.get $b))))
        (local.set $x (i32.add (local.get $x) (i32.const 4)))
        (local.set $y (i32.add (local.get $y) (i32.const 4)))
        (local.set $g (i32.add (local.get $g) (i32.const 4)))
        (local.set $b (i32.add (local.get $b) (i32.const 4)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $one)))
      (local.set $mean (i32.add (local.get $mean) (i32.const 4)))
      (local.set $rs (i32.add (local.get $rs) (i32.const 4)))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $row))))
)
