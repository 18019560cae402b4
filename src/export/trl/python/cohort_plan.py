"""From the exported config.json to one member process's settings (standard library only).

config.json is written by the lab's export (src/export/trl/build.ts): the experiment's arms,
members and their model ids, and the GRPOConfig values the spec maps to. This module picks one
(arm, member) slot and splits the step's B x G completions over the processes of its world into
micro-batches, so that one RL step of the lab is one generation batch and one optimizer step per
GRPO iteration in TRL. It also sets what a member process needs to differ from its peers and to
survive more than one process: its own sampling seed, how the model is loaded, and the process
group's timeout.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Dict, List, Optional, Tuple

# The TRL release the training script was written against and run with (the lab's mapping.ts).
TRL_VERSION = "0.26.2"

CONFIG_FORMAT = "cohort-lab-trl"
CONFIG_VERSION = 2

# How the policy (and the reference model) are loaded: GRPOConfig.model_init_kwargs, passed by TRL
# 0.26.2 to from_pretrained through trl/trainer/utils.py create_model_from_path. Its default dtype
# there is "auto" (the checkpoint's, bf16 for most instruct models; 0.27.0 made it float32): a
# bf16 weight of ~0.02 has a spacing of ~1e-4, so an AdamW step of ~1e-6 (the learning rate these
# models need) rounds away. float32 master weights, with GRPOConfig's bf16 autocast for the maths.
MODEL_DTYPE = "float32"

# Extra seconds the process group's timeout allows beyond the longest file wait (rendezvous or
# the frozen teacher's sampling), so that no collective times out while a member waits for a peer.
COLLECTIVE_MARGIN_S = 600
# torch's default process group timeout (transformers' ddp_timeout default): never go below it.
DEFAULT_DDP_TIMEOUT_S = 1800


def load_config(path) -> dict:
    with open(Path(path), encoding="utf-8") as f:
        config = json.load(f)
    if config.get("format") != CONFIG_FORMAT or config.get("version") != CONFIG_VERSION:
        raise ValueError(
            f"{path}: not a Cohort Lab TRL export config (format {config.get('format')!r} version "
            f"{config.get('version')!r}; expected {CONFIG_FORMAT!r} version {CONFIG_VERSION})"
        )
    seeds = [m.get("sampling_seed") for m in config["members"]]
    if any(not isinstance(s, int) for s in seeds) or len(set(seeds)) != len(seeds):
        raise ValueError(f"{path}: every member needs its own whole-number sampling_seed (got {seeds})")
    return config


def find_slot(config: dict, arm_id: str, member_id: str) -> Tuple[dict, dict]:
    """The arm and the member a process trains; ValueError naming the choices otherwise."""
    arms = {a["id"]: a for a in config["arms"]}
    if arm_id not in arms:
        skipped = {a["id"]: a for a in config.get("skipped_arms", [])}
        if arm_id in skipped:
            raise ValueError(f"arm {arm_id!r} is not exported: {skipped[arm_id]['reason']}")
        raise ValueError(f"no arm {arm_id!r} in the export (exported arms: {', '.join(arms) or 'none'})")
    arm = arms[arm_id]
    if member_id not in arm["members"]:
        raise ValueError(f"arm {arm_id!r} trains members {', '.join(arm['members'])}, not {member_id!r}")
    member = next(m for m in config["members"] if m["id"] == member_id)
    return arm, member


def sampling_seed(member: dict) -> int:
    """The seed this member's sampling starts from (config.json, written by the export).

    TRL 0.26.2 seeds sampling with set_seed(args.seed, device_specific=True) (grpo_trainer.py:609):
    the same seed plus the process index in every member, so two members of one model would draw the
    same completions and cast the same votes, and a peer arm would be a self arm. The export gives
    each member seed + 1000 x its position (members 1, 2, ...); the trainer re-seeds with it, again
    device-specific, so (member, process) pairs differ while a member has fewer than 1000 processes.
    `seed` itself stays shared: it orders the data (TRL's RepeatSampler) the same in every member.
    """
    return int(member["sampling_seed"])


def model_of(config: dict, member_id: str) -> str:
    for m in config["members"]:
        if m["id"] == member_id:
            return m["model"]
    raise ValueError(f"no member {member_id!r} in the export")


def peers_of(arm: dict, member_id: str) -> List[str]:
    """The members a process exchanges labels with: the arm's others (peer, ring, cohort); none otherwise."""
    if arm["scheme"] not in ("peer", "ring", "cohort"):
        return []
    return [m for m in arm["members"] if m != member_id]


def batch_plan(prompts_per_step: int, num_generations: int, world_size: int, max_micro_batch: int = 32) -> Dict[str, int]:
    """Split B x G completions per step over `world_size` processes and gradient accumulation.

    per_device_train_batch_size x world_size x gradient_accumulation_steps = B x G, and
    steps_per_generation = gradient_accumulation_steps (TRL's default): one generation and one
    optimizer step per RL step (per GRPO iteration), as in the lab.
    """
    total = prompts_per_step * num_generations
    if world_size < 1:
        raise ValueError(f"world size must be at least 1, got {world_size}")
    if total % world_size != 0:
        fits = [n for n in range(1, min(total, 64) + 1) if total % n == 0]
        raise ValueError(
            f"{prompts_per_step} prompts x {num_generations} completions = {total} per step do not split over "
            f"{world_size} processes; use one of {', '.join(map(str, fits))}"
        )
    per_process = total // world_size
    micro = max(d for d in range(1, min(per_process, max(1, max_micro_batch)) + 1) if per_process % d == 0)
    return {"per_device_train_batch_size": micro, "gradient_accumulation_steps": per_process // micro}


def grpo_config_kwargs(
    config: dict,
    arm_id: str,
    member_id: str,
    world_size: int,
    output_dir: str,
    max_micro_batch: int = 32,
    dataset: str = "lab",
    overrides: Optional[dict] = None,
    wait_s: float = 0.0,
) -> dict:
    """Keyword arguments for trl.GRPOConfig for one (arm, member) process.

    `wait_s` is the longest a process may wait on files (a peer's labels, the teacher): the process
    group's timeout (ddp_timeout) is set above it.
    """
    find_slot(config, arm_id, member_id)
    kwargs = dict(config["grpo"])
    kwargs.update(batch_plan(config["prompts_per_step"], kwargs["num_generations"], world_size, max_micro_batch))
    # The held-out evaluation samples G completions per prompt: whole prompts per batch.
    G = kwargs["num_generations_eval"]
    kwargs["per_device_eval_batch_size"] = G * max(1, max_micro_batch // G)
    kwargs["output_dir"] = output_dir
    kwargs["run_name"] = f"{arm_id}-{member_id}"
    if dataset != "lab":
        # A named data set has no lab schedule: TRL's seeded shuffle (the same in every member process).
        kwargs["shuffle_dataset"] = True
    kwargs["ddp_timeout"] = collective_timeout(wait_s)
    overrides = dict(overrides or {})
    user_init = overrides.pop("model_init_kwargs", None) or {}
    if not isinstance(user_init, dict):
        raise ValueError("--grpo model_init_kwargs must be a JSON object, e.g. model_init_kwargs={\"dtype\":\"bfloat16\"}")
    for key, value in overrides.items():
        kwargs[key] = value
    kwargs["model_init_kwargs"] = model_init_kwargs(world_size, user_init)
    return kwargs


def model_init_kwargs(world_size: int, user: Optional[dict] = None) -> dict:
    """GRPOConfig.model_init_kwargs: the dtype (MODEL_DTYPE unless the user sets one) and, with more
    than one process, device_map=None.

    TRL 0.26.2 loads with device_map="auto" unless DeepSpeed is on (grpo_trainer.py:271-275 and
    trl/trainer/utils.py create_model_from_path): every process of a multi-GPU member would spread
    the model over all its visible GPUs, which DistributedDataParallel refuses. TRL 0.27.0 passes
    None for MULTI_GPU as well; this does the same on 0.26.2 (the same dict loads the reference model).
    """
    out = {"dtype": MODEL_DTYPE, **(user or {})}
    if world_size > 1:
        out["device_map"] = None
    return out


def collective_timeout(wait_s: float) -> int:
    """ddp_timeout (seconds): above the longest file wait, so a collective never times out first."""
    return int(max(DEFAULT_DDP_TIMEOUT_S, math.ceil(wait_s) + COLLECTIVE_MARGIN_S))


def parse_override(text: str) -> Tuple[str, object]:
    """'KEY=VALUE' with VALUE read as JSON when it parses (numbers, true/false, lists), else as text."""
    if "=" not in text:
        raise ValueError(f"--grpo expects KEY=VALUE, got {text!r}")
    key, raw = text.split("=", 1)
    key = key.strip()
    if not key.isidentifier():
        raise ValueError(f"--grpo: {key!r} is not a GRPOConfig field name")
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw
    return key, value
