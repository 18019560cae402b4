/**
 * launch.sh and the accelerate configs it passes: how the members of one arm are started together
 * and stopped together.
 *
 * Each member is its own `accelerate launch` (its own world, as in Co-RL), started under `setsid`
 * so that the launcher, its torchrun agent and every worker share one process group that launch.sh
 * can stop as a whole: `kill PID` reaches only the launcher, whose children keep their GPUs. The
 * group is stopped when any member fails, on Ctrl-C or TERM, and when launch.sh exits for any
 * reason. Every launch names its accelerate config with `--config_file`, so a user's
 * default_config.yaml (gpu_ids, distributed_type, mixed_precision) cannot override the per-member
 * CUDA_VISIBLE_DEVICES or the world (accelerate 1.13 commands/launch.py reads the default file
 * whenever no --config_file is given).
 */
import type { ExperimentSpec } from '../../core/experiment/spec';
import { skipReason } from './mapping';

export const ACCELERATE_CONFIGS = {
  one: 'accelerate/one_process.yaml',
  multi: 'accelerate/multi_gpu.yaml',
} as const;

/**
 * An accelerate config file. gpu_ids all: the GPUs are the ones launch.sh makes visible.
 * mixed_precision no: GRPOConfig's bf16 decides (transformers' TrainingArguments writes
 * ACCELERATE_MIXED_PRECISION from it; a config value of bf16 would survive --grpo bf16=false).
 */
export function accelerateConfig(kind: keyof typeof ACCELERATE_CONFIGS): string {
  return `# Passed by launch.sh with --config_file (exported by Cohort Lab), so that an accelerate
# default_config.yaml of this machine cannot change how a member runs. ${kind === 'one' ? 'One process per member (NPROC=1).' : 'NPROC > 1 processes per member, one GPU each; --num_processes comes from launch.sh.'}
compute_environment: LOCAL_MACHINE
distributed_type: ${kind === 'one' ? "'NO'" : 'MULTI_GPU'}
num_machines: 1
machine_rank: 0
num_processes: 1
gpu_ids: all
mixed_precision: 'no'
downcast_bf16: 'no'
use_cpu: false
rdzv_backend: static
same_network: true
main_training_function: main
debug: false
tpu_env: []
tpu_use_cluster: false
tpu_use_sudo: false
`;
}

/** The shell-safe form of an id (ids are [A-Za-z0-9_-] by the spec's schema). */
export const sh = (s: string) => (/^[A-Za-z0-9_./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** launch.sh: every member of one arm in its own accelerate world and process group, in parallel. */
export function launchScript(spec: ExperimentSpec): string {
  const arms = spec.arms.filter((a) => !skipReason(a));
  const armList = arms.map((a) => a.id).join(' ');
  const cases = arms.map((a) => `  ${sh(a.id)}) MEMBERS=(${a.members.map(sh).join(' ')}) ;;`).join('\n');
  return `#!/usr/bin/env bash
# Train one arm of the exported Cohort Lab experiment: each member of the arm in its own
# accelerate world (one process group per member, as in Co-RL), all started together, exchanging
# pseudo-labels through $RUN_DIR/rendezvous/<arm>. Exported arms: ${arms.map((a) => a.id).join(', ')}.
#
#   bash launch.sh ARM [more train_cohort.py flags]      e.g. bash launch.sh ${arms[0].id} --learning_rate 1e-6
#
# Each member runs under setsid, in a process group of its own; when one member fails, on Ctrl-C
# or TERM, and whenever this script exits, every member's whole group is stopped (TERM, then KILL
# after STOP_GRACE seconds), so no launcher leaves workers holding GPUs. accelerate reads only the
# config shipped here (--config_file), never ~/.cache/huggingface/accelerate/default_config.yaml.
#
# Environment:
#   GPUS        comma-separated GPU ids, NPROC per member in order (default 0,1,...); a short list is reused
#   NPROC       processes (GPUs) per member (default 1); B x G must divide by it
#   RUN_ID      names this launch; all its members share it (default: a timestamp)
#   RUN_DIR     outputs, logs and the rendezvous directory (default runs/$RUN_ID)
#   PORT_BASE   first main_process_port (default 29500); give arms run side by side different bases
#   STOP_GRACE  seconds between TERM and KILL when stopping members (default 30)
set -euo pipefail
cd "$(dirname "$0")"
ARM="\${1:?usage: bash launch.sh ARM [flags]; arms: ${armList}}"
shift
case "$ARM" in
${cases}
  *) echo "launch.sh: unknown arm '$ARM' (exported arms: ${armList})" >&2; exit 2 ;;
esac
command -v setsid > /dev/null || { echo "launch.sh: needs setsid (util-linux) to stop each member's processes as a group" >&2; exit 2; }
RUN_ID="\${RUN_ID:-$(date +%Y%m%d-%H%M%S)}"
RUN_DIR="\${RUN_DIR:-runs/$RUN_ID}"
NPROC="\${NPROC:-1}"
PORT_BASE="\${PORT_BASE:-29500}"
STOP_GRACE="\${STOP_GRACE:-30}"
if [ "$NPROC" -gt 1 ]; then CONFIG=${ACCELERATE_CONFIGS.multi}; else CONFIG=${ACCELERATE_CONFIGS.one}; fi
N=\${#MEMBERS[@]}
IFS=, read -ra GPU_LIST <<< "\${GPUS:-$(seq -s, 0 $((N * NPROC - 1)))}"
mkdir -p "$RUN_DIR"

PIDS=()  # one per member: the pid of its setsid'd launcher, which is also its process group id
STOPPED=0
group_alive() { kill -0 -- "-$1" 2> /dev/null; }
stop_members() {
  [ "$STOPPED" = 1 ] && return 0
  STOPPED=1
  [ \${#PIDS[@]} -eq 0 ] && return 0
  local pid waited=0
  for pid in "\${PIDS[@]}"; do
    # The group; or, in the instant before setsid has made it, the process itself.
    kill -TERM -- "-$pid" 2> /dev/null || kill -TERM "$pid" 2> /dev/null || true
  done
  while [ "$waited" -lt "$((STOP_GRACE * 10))" ]; do
    local alive=0
    for pid in "\${PIDS[@]}"; do group_alive "$pid" && alive=1; done
    [ "$alive" = 0 ] && return 0
    sleep 0.1
    waited=$((waited + 1))
  done
  for pid in "\${PIDS[@]}"; do kill -KILL -- "-$pid" 2> /dev/null || true; done
}
on_signal() {
  echo "[launch] interrupted: stopping every member of $ARM" >&2
  stop_members
  exit 130
}
trap on_signal INT TERM
trap stop_members EXIT

for k in "\${!MEMBERS[@]}"; do
  member="\${MEMBERS[$k]}"
  gpus=""
  for ((j = 0; j < NPROC; j++)); do
    gpus+="\${gpus:+,}\${GPU_LIST[$(((k * NPROC + j) % \${#GPU_LIST[@]}))]}"
  done
  echo "[launch] $ARM/$member on GPU(s) $gpus, log $RUN_DIR/$ARM-$member.log"
  CUDA_VISIBLE_DEVICES="$gpus" setsid accelerate launch --config_file "$CONFIG" --num_processes "$NPROC" \\
    --main_process_port $((PORT_BASE + k)) \\
    train_cohort.py --arm "$ARM" --member "$member" --run_id "$RUN_ID" --run_dir "$RUN_DIR" "$@" \\
    > "$RUN_DIR/$ARM-$member.log" 2>&1 < /dev/null &
  PIDS+=($!)
done

rc=0
for _ in "\${PIDS[@]}"; do
  status=0
  wait -n || status=$?
  if [ "$status" -ne 0 ]; then
    rc=$status
    echo "[launch] a member of $ARM stopped with exit code $status: stopping the others (logs in $RUN_DIR)" >&2
    break
  fi
done
exit "$rc"
`;
}
