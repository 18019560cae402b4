"""From the exported config.json to one member process's settings (standard library only).

config.json is written by the lab's export (src/export/trl/build.ts): the experiment's arms,
members and their model ids, and the GRPOConfig values the spec maps to. This module picks one
(arm, member) slot and splits the step's B x G completions over the processes of its world into
micro-batches, so that one RL step of the lab is one generation batch and one optimizer step per
GRPO iteration in TRL.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, List, Optional, Tuple

CONFIG_FORMAT = "cohort-lab-trl"
CONFIG_VERSION = 1


def load_config(path) -> dict:
    with open(Path(path), encoding="utf-8") as f:
        config = json.load(f)
    if config.get("format") != CONFIG_FORMAT or config.get("version") != CONFIG_VERSION:
        raise ValueError(
            f"{path}: not a Cohort Lab TRL export config (format {config.get('format')!r} version "
            f"{config.get('version')!r}; expected {CONFIG_FORMAT!r} version {CONFIG_VERSION})"
        )
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
) -> dict:
    """Keyword arguments for trl.GRPOConfig for one (arm, member) process."""
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
    for key, value in (overrides or {}).items():
        kwargs[key] = value
    return kwargs


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
