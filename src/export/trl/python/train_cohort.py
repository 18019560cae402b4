#!/usr/bin/env python3
"""Train one member of one arm of a Cohort Lab experiment with TRL's GRPOTrainer (TRL 0.26.2).

    accelerate launch --config_file accelerate/one_process.yaml --num_processes 1 \
        train_cohort.py --arm peer --member A --run_id R --run_dir runs/R

Every (arm, member) pair is its own process (its own accelerate world, as in Co-RL); launch.sh
starts all members of an arm together. With more than one process per member, only rank 0
exchanges labels (or runs the frozen teacher) and hands the result to the other ranks through a
file (rendezvous.RankRelay), so none of them waits in a collective meanwhile.

The trainer is TRL's GRPOTrainer, re-seeded per member, with one reward function given through
TRL's public API (reward_funcs): TRL calls it with the completions, their token ids and the
dataset's other columns (answer, row). In training it extracts an answer from each completion,
votes, exchanges labels with the arm's other member processes through a shared directory
(rendezvous.py) where the scheme needs it, and returns the arm's rewards (cohort_rewards.py, the
lab's logic). In evaluation it returns the correctness against the truth (pass@1 on the held-out
set) and logs maj@G. No TRL method is overridden.

The truth enters training only in the oracle arm; elsewhere it is used for the logged metrics
(cohort/pseudo_label_accuracy, cohort/oracle_reward), as in the lab.

Exported by Cohort Lab; README.md says what of it has run, where, and with which versions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import cohort_plan as plan  # noqa: E402
import cohort_rewards as cr  # noqa: E402
from cohort_sampling import FrozenTeacher, offset_vllm_seed  # noqa: E402
from rendezvous import RankRelay, Rendezvous, write_json_atomic  # noqa: E402

# ---------------------------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------------------------


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", default=str(HERE / "config.json"), help="the export's config.json")
    p.add_argument("--arm", required=True, help="arm id (config.json 'arms')")
    p.add_argument("--member", required=True, help="member id in that arm")
    p.add_argument("--run_dir", default=None, help="outputs and the rendezvous directory (default runs/<run_id>)")
    p.add_argument("--run_id", default=None, help="the same for every member process of one launch (launch.sh sets it)")
    p.add_argument("--dataset", choices=["lab", "gsm8k"], default="lab",
                   help="lab: the experiment's own problems (data/*.jsonl); gsm8k: openai/gsm8k, downloaded by `datasets` when training starts")
    p.add_argument("--prompt_style", choices=["instruct", "lab", "lab_bos"], default="instruct",
                   help="instruct: a chat message asking for the answer after '>'; lab: the lab's raw prompt, e.g. '8+3+9=' (for a base or tiny model); "
                        "lab_bos: the same after the lab's BOS character '^' (for the lab's own members, lab_models.py)")
    p.add_argument("--heldout_limit", type=int, default=None, help="evaluate on at most this many held-out problems")
    p.add_argument("--max_micro_batch", type=int, default=32, help="most completions per forward/backward pass on one GPU")
    p.add_argument("--rendezvous_timeout", type=float, default=3600.0, help="seconds to wait for a live peer's labels")
    p.add_argument("--peer_start_timeout", type=float, default=1800.0, help="seconds to wait for a peer process to start")
    p.add_argument("--heartbeat_stale_after", type=float, default=300.0, help="a peer without a heartbeat this long is gone")
    p.add_argument("--use_vllm", action="store_true", help="generate with vLLM in colocate mode (pip install -r requirements-vllm.txt)")
    p.add_argument("--vllm_gpu_memory_utilization", type=float, default=0.3)
    p.add_argument("--learning_rate", type=float, default=None, help="override the lab's learning rate (see README)")
    p.add_argument("--max_completion_length", type=int, default=None)
    p.add_argument("--max_steps", type=int, default=None)
    p.add_argument("--report_to", default=None, help="e.g. wandb, tensorboard (default: none)")
    p.add_argument("--grpo", action="append", default=[], metavar="KEY=VALUE", help="any other GRPOConfig field, e.g. --grpo bf16=false")
    p.add_argument("--dry_run", action="store_true",
                   help="print the GRPOConfig arguments and the data, then exit (no GPU, torch or TRL; with --dataset gsm8k it still "
                        "downloads GSM8K, so it needs `datasets` and the network)")
    return p.parse_args(argv)


# ---------------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------------


def read_jsonl(path: Path) -> list:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


# The lab's BOS as a character (src/core/tasks/tokenizer.ts): its models read it before every prompt,
# and TRL tokenizes prompts without special tokens, so it goes into the text.
LAB_BOS = "^"


def lab_row(problem: dict, prompt_style: str, row: str) -> dict:
    if prompt_style == "instruct":
        prompt = [{"role": "user", "content": problem["question"]}]
    else:
        prompt = (LAB_BOS if prompt_style == "lab_bos" else "") + problem["lab_prompt"]
    return {"prompt": prompt, "answer": problem["answer"], "problem_id": problem["id"], "row": row}


def load_lab_data(config: dict, prompt_style: str, heldout_limit):
    """The lab's own split: the RL prompts in the lab's per-step order, and the held-out problems."""
    data = HERE / "data"
    rl = read_jsonl(data / "rl.jsonl")
    heldout = read_jsonl(data / "heldout.jsonl")
    with open(data / "schedule.json", encoding="utf-8") as f:
        schedule = json.load(f)
    rows = []
    for step, indices in enumerate(schedule["steps"], start=1):
        for k, i in enumerate(indices):
            rows.append(lab_row(rl[i], prompt_style, f"s{step}p{k}"))
    held = [lab_row(p, prompt_style, p["id"]) for p in heldout[: heldout_limit or None]]
    task = config["task"]

    def answer_of(text: str, truncated: bool):
        return cr.extract_answer(text, task["id"], task["difficulty"], truncated, bool(task.get("numeric_answers", False)))

    return rows, held, answer_of


GSM8K_INSTRUCTION = "Solve the problem. Finish your reply with the character > followed by the final number, and nothing after it."


def load_gsm8k(prompt_style: str, heldout_limit):
    from datasets import load_dataset

    ds = load_dataset("openai/gsm8k", "main")

    def rows_of(split, prefix):
        out = []
        for i, ex in enumerate(split):
            question = f"{ex['question']}\n\n{GSM8K_INSTRUCTION}"
            prompt = [{"role": "user", "content": question}] if prompt_style == "instruct" else f"Question: {ex['question']}\nAnswer:"
            out.append({"prompt": prompt, "answer": cr.gsm8k_truth(ex["answer"]), "problem_id": f"{prefix}{i}", "row": f"{prefix}{i}"})
        return out

    train = rows_of(ds["train"], "gsm8k-train-")
    held = rows_of(ds["test"], "gsm8k-test-")[: heldout_limit or 500]

    def answer_of(text: str, truncated: bool):
        return cr.extract_number_answer(text, truncated)

    return train, held, answer_of


def completion_text(completion) -> str:
    """TRL passes a string, or for conversational prompts a list of messages."""
    if isinstance(completion, str):
        return completion
    return "".join(m.get("content", "") for m in completion if isinstance(m, dict))


# ---------------------------------------------------------------------------------------------
# The final evaluation
# ---------------------------------------------------------------------------------------------


def needs_final_evaluation(args, state) -> bool:
    """The lab evaluates its last step; transformers' DefaultFlowCallback evaluates only when
    global_step % eval_steps == 0 (trainer_callback.py on_step_end), so a last step off the grid
    would go unevaluated. state.eval_steps is the interval in steps (a ratio already resolved)."""
    strategy = getattr(args.eval_strategy, "value", args.eval_strategy)
    every = getattr(state, "eval_steps", None) or args.eval_steps
    step = state.global_step
    return strategy == "steps" and bool(every) and step >= state.max_steps and step % every != 0


def build_final_evaluation(TrainerCallback):
    class FinalEvaluation(TrainerCallback):
        """Evaluates at the last step when max_steps is not a multiple of eval_steps."""

        def on_step_end(self, args, state, control, **kwargs):
            if needs_final_evaluation(args, state):
                control.should_evaluate = True
            return control

    return FinalEvaluation


def ensure_accumulation_steps(trainer, training_args) -> None:
    """The evaluation at step 0 (eval_on_start) runs GRPOTrainer.compute_loss, which divides by
    current_gradient_accumulation_steps; transformers 4.57 sets that attribute only inside the
    training loop, after the first evaluation, so the run stops with an AttributeError before its
    first step (found running TRL 0.26.2 on CPU). Give it the configured value until the loop sets it."""
    if not hasattr(trainer, "current_gradient_accumulation_steps"):
        trainer.current_gradient_accumulation_steps = training_args.gradient_accumulation_steps


# ---------------------------------------------------------------------------------------------
# The trainer
# ---------------------------------------------------------------------------------------------


def build_trainer_class():
    from accelerate.utils import gather_object, set_seed
    from trl import GRPOTrainer

    class CohortGRPOTrainer(GRPOTrainer):
        """TRL's GRPOTrainer, re-seeded per member, whose one reward function (arm_reward, TRL's
        public reward-function API) computes the Cohort Lab arm's rewards. No TRL method is overridden."""

        def __init__(self, *args, cohort: dict, **kwargs):
            super().__init__(*args, **kwargs)
            self.cohort = cohort
            # TRL seeded this process with set_seed(args.seed, device_specific=True)
            # (grpo_trainer.py:609), as it seeds every member; re-seed the same way from this
            # member's own seed so that members of one model draw different samples.
            set_seed(cohort["sampling_seed"], device_specific=True)
            self._rl_step = 0  # RL steps (generation batches) so far; the lab's step is this + 1
            self._eval_calls = 0

        # -- helpers -----------------------------------------------------------------------------

        def _gather(self, values: list) -> list:
            return gather_object(values) if self.accelerator.num_processes > 1 else list(values)

        def _local(self, values: list, n: int) -> list:
            """This process's share of values gathered in process order (n completions each)."""
            k = self.accelerator.process_index if self.accelerator.num_processes > 1 else 0
            return values[k * n : (k + 1) * n]

        def _on_main(self, key: str, fn):
            """Run fn on the main process; the other ranks get its result (or its error) from the
            member's RankRelay, waiting on a file rather than in a collective."""
            if self.accelerator.num_processes == 1:
                return fn()
            relay = self.cohort["relay"]
            if not self.accelerator.is_main_process:
                return relay.wait(key)
            try:
                result = fn()
            except Exception as e:  # every rank must stop with the same message
                relay.publish(key, error=f"{type(e).__name__}: {e}".splitlines()[0])
                raise
            relay.publish(key, ok=result)
            return result

        def _answers(self, completions, completion_ids_list) -> list:
            stop = {self.eos_token_id, self.pad_token_id}
            return [
                self.cohort["answer_of"](completion_text(c), len(ids) == 0 or ids[-1] not in stop)
                for c, ids in zip(completions, completion_ids_list)
            ]

        def _log(self, mode: str, key: str, value: float) -> None:
            """A cohort/* metric into the metrics TRL logs (its _metrics dict of lists per mode, as in
            TRL 0.19 to 1.x); a TRL without it trains the same and logs only its own metrics."""
            metrics = getattr(self, "_metrics", None)
            if isinstance(metrics, dict) and mode in metrics:
                metrics[mode][key].append(value)

        # -- the reward function -------------------------------------------------------------------

        def arm_reward(self, prompts, completions, completion_ids, answer, row, **_):
            """TRL's reward-function call (prompts, completions, completion_ids and the dataset's
            other columns as lists, for this process's completions). In training: the arm's
            rewards, computed over every process's completions of the step (the vote needs all G
            of a prompt) and returned for this process's share; in evaluation: correctness against
            the truth (pass@1 on the held-out set), with maj@G logged."""
            n = len(completions)
            if not self.model.training:
                self._log_heldout(completions, completion_ids, answer)
                return [cr.oracle_reward(a, t) for a, t in zip(self._answers(completions, completion_ids), answer)]
            return self._local(self._step_rewards(prompts, completions, completion_ids, answer, row), n)

        def _step_rewards(self, prompts, completions, completion_ids, answer, row) -> list:
            c = self.cohort
            G = self.num_generations
            answers = self._gather(self._answers(completions, completion_ids))
            truths_all = self._gather(list(answer))
            rows_all = self._gather(list(row))
            prompts_all = self._gather(list(prompts)) if c["scheme"] == "teacher" else None
            if len(answers) % G != 0:
                raise RuntimeError(f"{len(answers)} completions are not whole groups of {G}")
            B = len(answers) // G
            truths = [truths_all[b * G] for b in range(B)]
            rows = [rows_all[b * G] for b in range(B)]
            self._rl_step += 1
            step = self._rl_step
            scheme, seed, tau, arm_id, me = c["scheme"], c["seed"], c["tau"], c["arm"], c["member"]

            own = cr.own_votes(answers, B, seed, arm_id, me, step, tau)
            if scheme == "oracle":
                labels = list(truths)
                rewards = cr.compute_rewards("oracle", answers, B, G, truths=truths).rewards
            elif scheme in ("self", "self-soft"):
                out = cr.compute_rewards(scheme, answers, B, G, rng=cr.ballot_rng(seed, arm_id, me, step), tau=tau)
                labels, rewards = out.labels, out.rewards
            elif scheme in cr.EXCHANGE_SCHEMES:
                batch_key = hashlib.sha1("|".join(rows).encode()).hexdigest()[:16]
                payload = cr.exchange_payload(answers, B, own)

                def exchange():
                    t0 = time.perf_counter()
                    got = c["rendezvous"].exchange(step, batch_key, payload)
                    return got, time.perf_counter() - t0

                received, waited = self._on_main(f"exchange-{step:06d}", exchange)
                received[me] = payload
                labels = cr.supervision_labels(scheme, c["members"], me, received, tau)
                rewards = cr.rewards_for_labels(answers, G, labels)
                self._log("train", "cohort/rendezvous_wait_s", waited)
            elif scheme == "teacher":
                unique_prompts = [prompts_all[b * G] for b in range(B)]

                def teach():
                    sampled = c["teacher"].sample(unique_prompts, G)
                    return [c["answer_of"](text, truncated) for text, truncated in sampled]

                teacher_answers = self._on_main(f"teacher-{step:06d}", teach)
                votes = cr.plurality_votes(
                    teacher_answers, B, cr.ballot_rng(seed, arm_id, cr.teacher_voter_id(c["teacher_id"]), step), tau
                )
                labels = [v.label for v in votes]
                rewards = cr.rewards_for_labels(answers, G, labels)
            else:
                raise RuntimeError(f"scheme {scheme!r} is not exported")

            # Measurement only (the truth never reaches a label-free reward).
            labeled = [(lab, t) for lab, t in zip(labels, truths) if lab is not None]
            for key, value in (
                ("cohort/labeled_fraction", len(labeled) / B),
                ("cohort/pseudo_label_accuracy", sum(lab == t for lab, t in labeled) / len(labeled) if labeled else 0.0),
                ("cohort/own_vote_accuracy", sum(v.label is not None and v.label == t for v, t in zip(own, truths)) / B),
                ("cohort/own_tie_rate", sum(v.tied for v in own) / B),
                ("cohort/own_majority_ratio", sum(v.majority_ratio for v in own) / B),
                ("cohort/parseable_fraction", sum(a is not None for a in answers) / len(answers)),
                ("cohort/oracle_reward", sum(cr.oracle_reward(a, truths[i // G]) for i, a in enumerate(answers)) / len(answers)),
            ):
                self._log("train", key, value)
            return rewards

        def _log_heldout(self, completions, completion_ids, answer):
            G = self.num_generations_eval
            answers = self._gather(self._answers(completions, completion_ids))
            truths_all = self._gather(list(answer))
            if len(answers) % G != 0:
                return
            B = len(answers) // G
            self._eval_calls += 1
            groups = [answers[b * G : (b + 1) * G] for b in range(B)]
            score = cr.heldout_score(groups, [truths_all[b * G] for b in range(B)], cr.Rng(self.cohort["seed"]).child(f"eval/{self._eval_calls}"))
            self._log("eval", "cohort/maj_at_g", score["maj_at_g"])
            self._log("eval", "cohort/pass_at_1", score["pass_at_1"])

    return CohortGRPOTrainer


def is_lab_model(model: str) -> bool:
    """A model folder of the lab's own member (lab_models.save_lab_member: model_type cohort_lab_*)."""
    config = Path(model) / "config.json"
    if not config.is_file():
        return False
    try:
        return str(json.loads(config.read_text(encoding="utf-8")).get("model_type", "")).startswith("cohort_lab_")
    except (OSError, ValueError):
        return False  # transformers reads it next and says what is wrong


def policy_model(model: str, training_args):
    """What GRPOTrainer(model=...) gets: a model id or path as it is, for TRL to load; a lab member's
    folder loaded here, since TRL 0.26 loads a path by the architecture's name in transformers'
    own namespace (trl/trainer/utils.py create_model_from_path) and GRPOTrainer's public API
    takes a loaded model too. lab_models (which imports torch) is imported only for those."""
    if not is_lab_model(model):
        return model
    import lab_models

    lab_models.register()  # the Auto classes load it too (a frozen teacher's folder, AutoModelForCausalLM)
    training_args.model_init_kwargs = None  # used by TRL only for a path; the folder holds float32 weights
    training_args.gradient_checkpointing = False  # nothing to checkpoint in a two-layer MLP (and no support for it)
    return lab_models.LabMLPForCausalLM.from_pretrained(model)


def reward_function(holder: dict):
    """The function given to GRPOTrainer(reward_funcs=...): TRL calls it with the completions and
    the dataset's columns; it hands them to the trainer built with it (holder["trainer"])."""

    def arm_reward(prompts, completions, completion_ids, **columns):
        return holder["trainer"].arm_reward(prompts, completions, completion_ids, **columns)

    return arm_reward


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    args = parse_args(argv)
    config = plan.load_config(args.config)
    try:
        arm, member = plan.find_slot(config, args.arm, args.member)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    world_size = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    peers = plan.peers_of(arm, member["id"])
    run_id = args.run_id or os.environ.get("COHORT_RUN_ID")
    if run_id is None and (peers or world_size > 1):
        # A timestamp would differ between the processes that must find each other's files.
        print("error: --run_id is needed (the same for every process of every member of the arm; launch.sh sets it)", file=sys.stderr)
        return 2
    run_id = run_id or time.strftime("%Y%m%d-%H%M%S")
    run_dir = Path(args.run_dir or HERE / "runs" / run_id)
    # The longest a process waits on files: a peer's labels (or its start), or rank 0's result.
    wait_s = max(args.rendezvous_timeout, args.peer_start_timeout)

    overrides = {}
    for text in args.grpo:
        key, value = plan.parse_override(text)
        overrides[key] = value
    for key in ("learning_rate", "max_completion_length", "max_steps", "report_to"):
        if getattr(args, key) is not None:
            overrides[key] = getattr(args, key)
    if args.use_vllm:
        overrides.update(use_vllm=True, vllm_mode="colocate", vllm_gpu_memory_utilization=args.vllm_gpu_memory_utilization)
    kwargs = plan.grpo_config_kwargs(
        config, args.arm, args.member, world_size, str(run_dir / args.arm / args.member),
        max_micro_batch=args.max_micro_batch, dataset=args.dataset, overrides=overrides, wait_s=wait_s,
    )

    if args.dataset == "lab":
        train_rows, held_rows, answer_of = load_lab_data(config, args.prompt_style, args.heldout_limit)
    else:
        train_rows, held_rows, answer_of = load_gsm8k(args.prompt_style, args.heldout_limit)
    if args.dry_run:
        print(json.dumps({
            "arm": arm["id"], "scheme": arm["scheme"], "member": member["id"], "model": member["model"],
            "peers": peers, "teacher": arm.get("teacher"), "run_id": run_id, "world_size": world_size,
            "sampling_seed": plan.sampling_seed(member),
            "grpo_config": kwargs, "train_rows": len(train_rows), "eval_rows": len(held_rows),
            "first_train_row": train_rows[0] if train_rows else None,
        }, indent=1))
        return 0

    from datasets import Dataset
    from trl import GRPOConfig

    training_args = GRPOConfig(**kwargs)

    cohort = {
        "arm": arm["id"], "scheme": arm["scheme"], "members": arm["members"], "member": member["id"],
        "tau": float(arm.get("tau") or 0.0), "seed": int(config["seed"]), "answer_of": answer_of,
        "sampling_seed": plan.sampling_seed(member), "relay": None,
    }
    if world_size > 1 and (peers or arm["scheme"] == "teacher"):
        relay = RankRelay(run_dir / "relay" / arm["id"] / member["id"], run_id, timeout=wait_s + plan.COLLECTIVE_MARGIN_S)
        cohort["relay"] = relay.clear() if rank == 0 else relay
    if args.use_vllm:
        import trl.trainer.grpo_trainer as grpo_module

        offset_vllm_seed(grpo_module, plan.sampling_seed(member))
    rendezvous = None
    is_main = rank == 0
    if peers and is_main:
        rendezvous = Rendezvous(
            run_dir / "rendezvous" / arm["id"], member["id"], peers, run_id,
            timeout=args.rendezvous_timeout, start_timeout=args.peer_start_timeout, stale_after=args.heartbeat_stale_after,
        ).start()
    cohort["rendezvous"] = rendezvous

    from transformers import TrainerCallback

    if arm["scheme"] == "teacher" and is_lab_model(plan.model_of(config, arm["teacher"])):
        import lab_models

        lab_models.register()
    Trainer = build_trainer_class()
    trainer = None
    holder = {}
    try:
        trainer = Trainer(
            model=policy_model(member["model"], training_args), reward_funcs=[reward_function(holder)], args=training_args,
            train_dataset=Dataset.from_list(train_rows), eval_dataset=Dataset.from_list(held_rows), cohort=cohort,
            callbacks=[build_final_evaluation(TrainerCallback)()],
        )
        holder["trainer"] = trainer
        ensure_accumulation_steps(trainer, training_args)
        if arm["scheme"] == "teacher" and trainer.accelerator.is_main_process:
            cohort["teacher_id"] = arm["teacher"]
            cohort["teacher"] = FrozenTeacher(plan.model_of(config, arm["teacher"]), trainer.accelerator.device, training_args)
        elif arm["scheme"] == "teacher":
            cohort["teacher_id"] = arm["teacher"]
        trainer.train()
        trainer.save_model(str(run_dir / args.arm / args.member / "final"))
        if is_main:
            # Every logged step and evaluation (Trainer.state.log_history), for reading the run back.
            out = run_dir / args.arm / args.member
            out.mkdir(parents=True, exist_ok=True)
            write_json_atomic(out / "log_history.json", trainer.state.log_history)
    except BaseException as e:  # PeerGone, TimeoutError, a CUDA error, Ctrl-C: tell the peers, then stop
        if rendezvous is not None:
            rendezvous.fail(f"{type(e).__name__}: {e}".splitlines()[0])
        print(f"error: {args.arm}/{args.member}: {type(e).__name__}: {e}".splitlines()[0], file=sys.stderr)
        raise
    if rendezvous is not None:
        rendezvous.finish()
    if cohort["relay"] is not None and rank == 0:
        cohort["relay"].close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
