;; The GELU's elementwise chains on tfjs-backend-wasm's heap, for
;; src/core/models/fusedGelu.ts. The lab's GELU (src/core/models/layers.ts) is
;;   y = x * sigmoid(((x * x) * x * c1 + x) * c2),  c1 = 0.044715, c2 = 2 sqrt(2 / pi)
;; as seven tfjs kernels forward, and about twenty more in its gradient.
;;
;; geluPre(x, out, n, c1, c2): out = (x + ((x * x) * x) * c1) * c2, the argument of the sigmoid.
;;   The sigmoid itself stays tfjs's (XNNPACK's approximation), and so does y = x * s.
;; geluGrad(dy, x, s, out, n, c1, c2): dx, given dy and s = sigmoid(twoU), computed exactly as
;;   tfjs's gradient tape computes it through those seven ops: the same products and sums, each
;;   rounded to float32, in the tape's order (each mul's gradient is dy times the other input;
;;   a tensor's gradients are summed in the order the tape visits its uses, newest op first):
;;     acc = dy * s                       y = x * s, input a
;;     dtwoU = (dy * x) * (s * (1 - s))   input b, then the sigmoid
;;     dinner = dtwoU * c2;  acc += dinner
;;     dcube = dinner * c1
;;     acc += dcube * (x * x)             cube = a1 * x, input b
;;     acc += (dcube * x) * x, twice      a1 = x * x, inputs a and b
;;   so dx equals the tape's bit for bit (gelu.test.ts). One SIMD lane per element: no
;;   element's order changes. n counts floats; addresses are bytes.
;;
;; The memory is tfjs-backend-wasm's own, imported; scripts/build-wasm-kernels.mjs writes a
;; second build with a shared memory for its threaded build.
(module
  (import "env" "memory" MEMORY)

  (func (export "geluPre")
    (param $x i32) (param $out i32) (param $n i32) (param $c1 f32) (param $c2 f32)
    (local $end i32) (local $end4 i32) (local $v v128) (local $c1v v128) (local $c2v v128) (local $f f32)
    (local.set $end (i32.add (local.get $x) (i32.shl (local.get $n) (i32.const 2))))
    (local.set $end4 (i32.add (local.get $x) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (local.set $c1v (f32x4.splat (local.get $c1)))
    (local.set $c2v (f32x4.splat (local.get $c2)))
    (block $done4 (loop $four
      (br_if $done4 (i32.ge_u (local.get $x) (local.get $end4)))
      (local.set $v (v128.load (local.get $x)))
      (v128.store (local.get $out)
        (f32x4.mul
          (f32x4.add (local.get $v)
            (f32x4.mul (f32x4.mul (f32x4.mul (local.get $v) (local.get $v)) (local.get $v)) (local.get $c1v)))
          (local.get $c2v)))
      (local.set $x (i32.add (local.get $x) (i32.const 16)))
      (local.set $out (i32.add (local.get $out) (i32.const 16)))
      (br $four)))
    (block $done (loop $one
      (br_if $done (i32.ge_u (local.get $x) (local.get $end)))
      (local.set $f (f32.load (local.get $x)))
      (f32.store (local.get $out)
        (f32.mul
          (f32.add (local.get $f)
            (f32.mul (f32.mul (f32.mul (local.get $f) (local.get $f)) (local.get $f)) (local.get $c1)))
          (local.get $c2)))
      (local.set $x (i32.add (local.get $x) (i32.const 4)))
      (local.set $out (i32.add (local.get $out) (i32.const 4)))
      (br $one))))

  (func (export "geluGrad")
    (param $dy i32) (param $x i32) (param $s i32) (param $out i32) (param $n i32) (param $c1 f32) (param $c2 f32)
    (local $end i32) (local $end4 i32)
    (local $c1v v128) (local $c2v v128) (local $onev v128)
    (local $xv v128) (local $sv v128) (local $dyv v128) (local $acc v128) (local $t v128) (local $dcube v128)
    (local $xf f32) (local $sf f32) (local $dyf f32) (local $accf f32) (local $tf f32) (local $dcubef f32)
    (local.set $end (i32.add (local.get $x) (i32.shl (local.get $n) (i32.const 2))))
    (local.set $end4 (i32.add (local.get $x) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (local.set $c1v (f32x4.splat (local.get $c1)))
    (local.set $c2v (f32x4.splat (local.get $c2)))
    (local.set $onev (f32x4.splat (f32.const 1)))
    (block $done4 (loop $four
      (br_if $done4 (i32.ge_u (local.get $x) (local.get $end4)))
      (local.set $xv (v128.load (local.get $x)))
      (local.set $sv (v128.load (local.get $s)))
      (local.set $dyv (v128.load (local.get $dy)))
      (local.set $acc (f32x4.mul (local.get $dyv) (local.get $sv)))
      ;; $t: dinner = ((dy * x) * (s * (1 - s))) * c2
      (local.set $t
        (f32x4.mul
          (f32x4.mul (f32x4.mul (local.get $dyv) (local.get $xv))
            (f32x4.mul (local.get $sv) (f32x4.sub (local.get $onev) (local.get $sv))))
          (local.get $c2v)))
      (local.set $acc (f32x4.add (local.get $acc) (local.get $t)))
      (local.set $dcube (f32x4.mul (local.get $t) (local.get $c1v)))
      (local.set $acc (f32x4.add (local.get $acc)
        (f32x4.mul (local.get $dcube) (f32x4.mul (local.get $xv) (local.get $xv)))))
      ;; $t: da1 = dcube * x, then da1 * x
      (local.set $t (f32x4.mul (f32x4.mul (local.get $dcube) (local.get $xv)) (local.get $xv)))
      (local.set $acc (f32x4.add (local.get $acc) (local.get $t)))
      (local.set $acc (f32x4.add (local.get $acc) (local.get $t)))
      (v128.store (local.get $out) (local.get $acc))
      (local.set $x (i32.add (local.get $x) (i32.const 16)))
      (local.set $s (i32.add (local.get $s) (i32.const 16)))
      (local.set $dy (i32.add (local.get $dy) (i32.const 16)))
      (local.set $out (i32.add (local.get $out) (i32.const 16)))
      (br $four)))
    (block $done (loop $one
      (br_if $done (i32.ge_u (local.get $x) (local.get $end)))
      (local.set $xf (f32.load (local.get $x)))
      (local.set $sf (f32.load (local.get $s)))
      (local.set $dyf (f32.load (local.get $dy)))
      (local.set $accf (f32.mul (local.get $dyf) (local.get $sf)))
      (local.set $tf
        (f32.mul
          (f32.mul (f32.mul (local.get $dyf) (local.get $xf))
            (f32.mul (local.get $sf) (f32.sub (f32.const 1) (local.get $sf))))
          (local.get $c2)))
      (local.set $accf (f32.add (local.get $accf) (local.get $tf)))
      (local.set $dcubef (f32.mul (local.get $tf) (local.get $c1)))
      (local.set $accf (f32.add (local.get $accf)
        (f32.mul (local.get $dcubef) (f32.mul (local.get $xf) (local.get $xf)))))
      (local.set $tf (f32.mul (f32.mul (local.get $dcubef) (local.get $xf)) (local.get $xf)))
      (local.set $accf (f32.add (local.get $accf) (local.get $tf)))
      (local.set $accf (f32.add (local.get $accf) (local.get $tf)))
      (f32.store (local.get $out) (local.get $accf))
      (local.set $x (i32.add (local.get $x) (i32.const 4)))
      (local.set $s (i32.add (local.get $s) (i32.const 4)))
      (local.set $dy (i32.add (local.get $dy) (i32.const 4)))
      (local.set $out (i32.add (local.get $out) (i32.const 4)))
      (br $one)))))
