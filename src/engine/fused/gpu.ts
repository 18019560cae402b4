/**
 * The little WebGPU the fused path needs, on a GPUDevice it is given (tfjs's own, so buffers stay
 * on one device): storage buffers, compute pipelines compiled once per shader text, and a `Pass`
 * that records any number of dispatches and buffer copies into ONE command encoder, submits it
 * once and maps ONE buffer back (docs/ARCHITECTURE.md, "The fused WebGPU step").
 *
 * Every shader reads at most 8 storage buffers (WebGPU's default maxStorageBuffersPerShaderStage):
 * the fused kernels pack a stack's weights, gradients and Adam moments into one buffer each, so
 * none needs more, and the device's limits are never raised.
 */

/** Usage flags (GPUBufferUsage's values, which are fixed by the WebGPU spec). */
export const USAGE = { MAP_READ: 0x1, COPY_SRC: 0x4, COPY_DST: 0x8, UNIFORM: 0x40, STORAGE: 0x80 } as const;
const MAP_READ_MODE = 0x1; // GPUMapMode.READ

/** A storage buffer of `floats` 4-byte words (f32 or i32), copyable both ways. */
export function storage(device: GPUDevice, floats: number, label: string): GPUBuffer {
  // WebGPU buffers are sized in multiples of 4 bytes and may not be empty.
  return device.createBuffer({ label, size: Math.max(4, floats * 4), usage: USAGE.STORAGE | USAGE.COPY_SRC | USAGE.COPY_DST });
}

/** Write a typed array at the start of `buffer` (queue.writeBuffer: no submit of ours, no readback). */
export function upload(device: GPUDevice, buffer: GPUBuffer, data: Float32Array | Int32Array | Uint32Array, atFloat = 0): void {
  if (data.length > 0) device.queue.writeBuffer(buffer, atFloat * 4, data.buffer, data.byteOffset, data.byteLength);
}

/** Pipelines by shader text: each kernel compiles once per device and shape. */
const PIPELINES = new WeakMap<GPUDevice, Map<string, GPUComputePipeline>>();

export function pipeline(device: GPUDevice, code: string, label: string): GPUComputePipeline {
  let byCode = PIPELINES.get(device);
  if (!byCode) PIPELINES.set(device, (byCode = new Map()));
  let p = byCode.get(code);
  if (!p) {
    p = device.createComputePipeline({ label, layout: 'auto', compute: { module: device.createShaderModule({ label, code }), entryPoint: 'main' } });
    byCode.set(code, p);
  }
  return p;
}

/** One kernel launch: a pipeline, its buffers in binding order, and the workgroups to run. */
export interface Dispatch {
  pipeline: GPUComputePipeline;
  buffers: GPUBuffer[];
  workgroups: number;
}

/** The largest workgroup count of one dimension WebGPU guarantees. */
const MAX_GROUPS = 65535;

/**
 * Record the dispatches into one compute pass of one encoder, copy each of `read` into one fresh
 * mappable buffer (one after the other), submit once and map once: one submit and one readback,
 * whatever the number of kernels. Bind groups are made once per dispatch object and kept, so a
 * recorded step allocates nothing but the readback's buffer.
 */
export async function runAndRead(device: GPUDevice, dispatches: Dispatch[], read: { buffer: GPUBuffer; floats: number }[]): Promise<Float32Array> {
  const encoder = device.createCommandEncoder({ label: 'fused step' });
  const pass = encoder.beginComputePass({ label: 'fused step' });
  for (const d of dispatches) {
    pass.setPipeline(d.pipeline);
    pass.setBindGroup(0, bindGroup(device, d));
    // Large launches fold into 2-D grids; the kernels read their index as y * (x groups) + x.
    const x = Math.min(d.workgroups, MAX_GROUPS);
    pass.dispatchWorkgroups(x, Math.ceil(d.workgroups / x));
  }
  pass.end();
  const floats = read.reduce((n, r) => n + r.floats, 0);
  const staging = device.createBuffer({ label: 'fused readback', size: Math.max(4, floats * 4), usage: USAGE.MAP_READ | USAGE.COPY_DST });
  read.reduce((at, r) => (r.floats > 0 && encoder.copyBufferToBuffer(r.buffer, 0, staging, at * 4, r.floats * 4), at + r.floats), 0);
  device.queue.submit([encoder.finish()]);
  try {
    await staging.mapAsync(MAP_READ_MODE);
    return new Float32Array(staging.getMappedRange().slice(0, floats * 4));
  } finally {
    staging.destroy();
  }
}

const BIND_GROUPS = new WeakMap<Dispatch, GPUBindGroup>();

function bindGroup(device: GPUDevice, d: Dispatch): GPUBindGroup {
  let g = BIND_GROUPS.get(d);
  if (!g) {
    g = device.createBindGroup({
      layout: d.pipeline.getBindGroupLayout(0),
      entries: d.buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
    BIND_GROUPS.set(d, g);
  }
  return g;
}

/** The WGSL lines every kernel starts with: its flat workgroup index over a 2-D grid. */
export const GROUP_INDEX = 'let group = wg.y * nwg.x + wg.x;';
