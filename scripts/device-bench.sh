#!/usr/bin/env bash
# The Node bench's WebGPU rows on a GPU machine that has no Node, no npm and no network
# (docs/BENCHMARKS.md, section "WebGPU on a real GPU").
#
#   scripts/device-bench.sh build [DIR]   here, in a checkout with node_modules: bundle cli/bench/bench-gpu.ts
#                                         (esbuild, one file), this machine's Node binary (stripped, xz),
#                                         Dawn (the `webgpu` package's linux-x64 dawn.node, stripped, xz),
#                                         tfjs's wasm binaries, Debian's Vulkan/GL loader packages and this
#                                         script into DIR (default .devicebench, about 28 MB: it travels with the
#                                         checkout, whose limit is 64 MiB in all)
#   bash DIR/device-bench.sh run [DIR]    there, from the folder holding DIR: unpack into /tmp/devicebench,
#                                         print the machine, the GPU and the Vulkan driver, probe the
#                                         adapter Dawn picks, then run the rows; the JSON and the log go to
#                                         $OUT (default DIR/out)
#
# Then copy the JSON to bench/results/gpu.json and write the section:
#   npx tsx cli/bench/bench-gpu-lib.ts --write
# The cases and flags of the run: BENCH_ARGS (default below). x86-64 Linux only.
set -uo pipefail
mode=${1:-}
D=${2:-.devicebench}

build() {
  set -e
  local tmp
  tmp=$(mktemp -d)
  local B=$tmp/bundle
  mkdir -p "$B/node_modules/webgpu/dist/linux-x64" "$D/gl"
  npx esbuild cli/bench/bench-gpu.ts --bundle --platform=node --format=esm --target=node20 --external:webgpu \
    --outfile="$B/bench-gpu.mjs" --log-level=warning \
    --banner:js="import { createRequire as __cr } from 'node:module'; import { fileURLToPath as __fu } from 'node:url'; import { dirname as __dn } from 'node:path'; const require = __cr(import.meta.url); const __filename = __fu(import.meta.url); const __dirname = __dn(__filename);"
  cp node_modules/@tensorflow/tfjs-backend-wasm/dist/*.wasm "$B/"
  cp node_modules/webgpu/package.json node_modules/webgpu/index.js "$B/node_modules/webgpu/"
  cp node_modules/webgpu/dist/linux-x64/dawn.node "$B/node_modules/webgpu/dist/linux-x64/"
  strip --strip-unneeded "$B/node_modules/webgpu/dist/linux-x64/dawn.node"
  cat >"$B/probe.mjs" <<'EOF2'
// The adapter Dawn picks, before the bench: its info, and whether a device comes up.
import { create, globals } from 'webgpu';
Object.assign(globalThis, globals);
const gpu = create([]);
const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
if (!adapter) {
  console.log('probe: no adapter');
  process.exit(3);
}
const { vendor, architecture, device, description } = adapter.info;
console.log('probe: adapter.info', JSON.stringify({ vendor, architecture, device, description, isFallbackAdapter: adapter.info.isFallbackAdapter }));
console.log('probe: features', [...adapter.features].join(' '));
console.log('probe: maxStorageBufferBindingSize', adapter.limits.maxStorageBufferBindingSize, 'maxComputeInvocationsPerWorkgroup', adapter.limits.maxComputeInvocationsPerWorkgroup);
const dev = await adapter.requestDevice();
console.log('probe: device ok');
dev.destroy();
process.exit(0);
EOF2
  tar -C "$B" -cf - . | xz -9 -T2 >"$D/bundle.tar.xz"
  if [ ! -f "$D/node.xz" ]; then
    cp "$(command -v node)" "$tmp/node" && strip "$tmp/node" && xz -9 -T2 -c "$tmp/node" >"$D/node.xz"
  fi
  rm -rf "$tmp"
  if ! ls "$D"/gl/libvulkan1_*.deb >/dev/null 2>&1; then
    local o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
    mkdir -p /tmp/amd64/partial
    # shellcheck disable=SC2086
    apt-get $o update >/dev/null
    # shellcheck disable=SC2086
    (cd "$D/gl" && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
  fi
  cp "$0" "$D/device-bench.sh"
  du -sh "$D"
}

run() {
  local T=/tmp/devicebench
  OUT=${OUT:-$D/out}
  mkdir -p "$T" "$OUT"
  exec > >(tee "$OUT/device.log") 2>&1
  echo "== $(date -u +%FT%TZ) machine"
  uname -m; nproc; grep MemTotal /proc/meminfo
  nvidia-smi -L
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  ls -la /dev/nvidia* 2>&1 | head
  echo "== Vulkan driver files"
  ls /usr/local/nvidia/share/vulkan/icd.d/ /usr/share/vulkan/icd.d/ /etc/vulkan/icd.d/ 2>&1
  cat /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json 2>&1
  echo "== loader before: $(ldconfig -p | grep -c libvulkan) libvulkan entries"
  if [ "${SKIP_LOADERS:-}" != 1 ]; then # SKIP_LOADERS=1: a dry run here, which must not unpack into /
    for f in "$D"/gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
  fi
  ldconfig -p | grep -E 'libvulkan|libGLX_nvidia|libGLdispatch'
  echo "== unpack"
  xz -dc "$D/node.xz" >"$T/node" && chmod +x "$T/node"
  xz -dc "$D/bundle.tar.xz" | tar -C "$T" -xf -
  "$T/node" --version
  local icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  if [ -f "$icd" ]; then
    export VK_ICD_FILENAMES=$icd VK_DRIVER_FILES=$icd
    export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
  fi
  echo "== probe (VK_ICD_FILENAMES=${VK_ICD_FILENAMES:-unset})"
  if ! (cd "$T" && timeout 60 ./node probe.mjs); then
    echo "== probe failed: the loader's own account"
    (cd "$T" && VK_LOADER_DEBUG=error,warn,info timeout 60 ./node probe.mjs 2>&1 | head -80)
  fi
  local gpu
  gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1 | sed 's/, /, driver /')
  local gpuflag=()
  [ -n "$gpu" ] && gpuflag=(--gpu "$gpu")
  local args=${BENCH_ARGS:---cases collapse,scaling,transformer,peers-teach --repeats 5 --warmup 2 --cpu-forward true,false --wasm}
  echo "== bench: $args --gpu '$gpu'"
  # shellcheck disable=SC2086
  (cd "$T" && timeout "${BENCH_TIMEOUT:-330}" ./node bench-gpu.mjs $args "${gpuflag[@]}" --json "$OUT/gpu.json")
  echo "== bench rc $? at $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv 2>&1
}

case "$mode" in
  build) build ;;
  run) run ;;
  *) echo "usage: $0 build [DIR] | run [DIR]" >&2; exit 2 ;;
esac
