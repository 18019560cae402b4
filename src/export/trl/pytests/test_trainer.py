"""Tests of the exported train_cohort.py's own logic against stand-ins of TRL and its stack
(fake_trl.py): per-member sampling seeds, the rank relay instead of a collective, the teacher's
sampling settings, the final evaluation and the wiring of main. Run by src/export/trl/python.test.ts
with COHORT_EXPORT_DIR set to a freshly exported project (the collapse preset: arms oracle, self,
peer; members A and B, both given the same model id)."""

import json
import os
import sys
import tempfile
import threading
import time
import types
import unittest
from pathlib import Path

EXPORT = Path(os.environ["COHORT_EXPORT_DIR"])
sys.path.insert(0, str(EXPORT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import fake_trl as fake  # noqa: E402

fake.install()

import cohort_plan as plan  # noqa: E402
import cohort_sampling as cs  # noqa: E402
import train_cohort as tc  # noqa: E402
from rendezvous import RankRelay  # noqa: E402


def as_rank(r: int, world: int, fn):
    """Run fn in a thread that plays process `r` of `world`; return its result or exception."""
    box = {}

    def go():
        fake.RANK.value, fake.RANK.world = r, world
        try:
            box["ok"] = fn()
        except BaseException as e:  # noqa: BLE001
            box["error"] = e

    t = threading.Thread(target=go)
    t.start()
    return t, box


def run_ranks(fns, world):
    started = [as_rank(r, world, fn) for r, fn in enumerate(fns)]
    for t, _ in started:
        t.join(30)
    return [box for _, box in started]


class Base(unittest.TestCase):
    def setUp(self):
        fake.reset()
        self.config = plan.load_config(EXPORT / "config.json")
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.Trainer = tc.build_trainer_class()

    def trainer(self, member_id, relay=None):
        member = next(m for m in self.config["members"] if m["id"] == member_id)
        args = fake.GRPOConfig(seed=self.config["seed"])
        cohort = {"sampling_seed": plan.sampling_seed(member), "relay": relay}
        return self.Trainer(model=member["model"], args=args, cohort=cohort)


class SamplingSeedTest(Base):
    def test_members_of_one_model_and_their_processes_sample_from_different_seeds(self):
        models = {m["model"] for m in self.config["members"]}
        self.assertEqual(len(models), 1, "the fixture gives both members the same model id")
        seeds = {}
        for member in ("A", "B"):
            for r in (0, 1):
                fake.SEEDS.clear()
                thread, box = as_rank(r, 2, lambda m=member: self.trainer(m))
                thread.join(30)
                self.assertNotIn("error", box, box.get("error"))
                # TRL seeded with the shared seed first; the member's seed is the last word.
                self.assertEqual(fake.SEEDS[0], (r, self.config["seed"] + r))
                seeds[(member, r)] = fake.SEEDS[-1][1]
        self.assertEqual(len(set(seeds.values())), 4, seeds)
        self.assertEqual(seeds[("A", 0)], self.config["seed"] + 1000)
        self.assertEqual(seeds[("B", 1)], self.config["seed"] + 2001)

    def test_vllm_is_seeded_per_member_too(self):
        built = []
        module = types.SimpleNamespace(LLM=lambda **kw: built.append(kw))
        cs.offset_vllm_seed(module, 2000)
        module.LLM(model="m", seed=1)  # TRL passes process_index // tensor_parallel_size
        self.assertEqual(built, [{"model": "m", "seed": 2001}])


class RelayTest(Base):
    def relay(self, timeout=10):
        return RankRelay(Path(self.tmp.name) / "relay", "run1", timeout=timeout, poll=0.01)

    def test_other_ranks_wait_on_a_file_not_in_a_collective_while_rank_0_waits_for_a_peer(self):
        ran = []

        def slow_exchange():
            ran.append(fake.rank())
            time.sleep(0.5)  # rank 0 waiting for a peer's labels
            return [{"B": [["1", "2"]]}, 0.5]

        trainers = [None, None]

        def make(r):
            trainers[r] = self.trainer("A", relay=self.relay().clear() if r == 0 else self.relay())
            return trainers[r]._on_main("exchange-000001", slow_exchange)

        boxes = run_ranks([lambda: make(0), lambda: make(1)], 2)
        self.assertEqual([b.get("error") for b in boxes], [None, None])
        self.assertEqual(boxes[0]["ok"], boxes[1]["ok"])
        self.assertEqual(boxes[1]["ok"][0], {"B": [["1", "2"]]})
        self.assertEqual(ran, [0], "only rank 0 exchanges")
        self.assertEqual(fake.COLLECTIVES, [])

    def test_every_rank_stops_with_rank_0s_error(self):
        def fails():
            raise RuntimeError("PeerGone: peer B stopped with an error before step 3")

        def make(r):
            t = self.trainer("A", relay=self.relay().clear() if r == 0 else self.relay())
            return t._on_main("exchange-000003", fails)

        boxes = run_ranks([lambda: make(0), lambda: make(1)], 2)
        self.assertIn("peer B stopped", str(boxes[0]["error"]))
        self.assertIsInstance(boxes[1]["error"], RuntimeError)
        self.assertIn("peer B stopped with an error before step 3", str(boxes[1]["error"]))

    def test_one_process_runs_the_step_itself(self):
        t = self.trainer("A")
        self.assertEqual(t._on_main("exchange-000001", lambda: 7), 7)


class TeacherTest(Base):
    def test_the_teacher_samples_with_the_policys_settings_and_end_token(self):
        args = fake.GRPOConfig(temperature=0.7, top_p=1, max_completion_length=16, model_init_kwargs={"dtype": "float32"})
        # Row 1 ends at Qwen's second end token (the model's, not the tokenizer's): TRL would go
        # on sampling past it, so it is not an end here either: cut at the length cap.
        fake.FakeModel.script = [[5, 6, fake.QWEN_EOS, fake.QWEN_ENDOFTEXT], [7, fake.QWEN_ENDOFTEXT, 8, 9]]
        teacher = cs.FrozenTeacher("Qwen/Qwen2.5-0.5B-Instruct", "cuda:0", args)
        out = teacher.sample([[{"role": "user", "content": "q"}]], 2)
        self.assertEqual(out, [("5 6", False), ("7 8 9", True)])
        call = teacher.model.generate_calls[0]
        cfg = call["generation_config"].kwargs
        self.assertEqual(call["num_return_sequences"], 2)
        self.assertEqual(
            {k: cfg[k] for k in ("temperature", "top_p", "top_k", "min_p", "repetition_penalty", "eos_token_id", "max_new_tokens", "do_sample")},
            {"temperature": 0.7, "top_p": 1, "top_k": None, "min_p": None, "repetition_penalty": 1.0, "eos_token_id": fake.QWEN_EOS, "max_new_tokens": 16, "do_sample": True},
        )
        # The model's own defaults (repetition penalty 1.05, top_k 20) are replaced, not merged.
        self.assertIs(teacher.model.generation_config, call["generation_config"])
        self.assertEqual(fake.FakeModel.loaded, [("Qwen/Qwen2.5-0.5B-Instruct", {"dtype": "torch.float32"})])

    def test_generation_kwargs_of_the_config_reach_the_teacher_as_they_reach_the_policy(self):
        args = fake.GRPOConfig(temperature=1.0, top_p=0.9, max_completion_length=8, generation_kwargs={"top_k": 5})
        kw = cs.policy_generation_kwargs(args, fake.FakeTokenizer())
        self.assertEqual((kw["top_k"], kw["top_p"], kw["pad_token_id"]), (5, 0.9, fake.QWEN_ENDOFTEXT))


class RewardFunctionTest(Base):
    """The arm's rewards reach TRL through its public reward-function call (the fake calls it as
    TRL 0.26.2's _calculate_rewards does): the lab's rewards, and its measurements logged."""

    def trainer_for(self, scheme):
        import cohort_rewards as cr

        member = next(m for m in self.config["members"] if m["id"] == "A")
        holder = {}
        cohort = {
            "arm": scheme, "scheme": scheme, "members": ["A", "B"], "member": "A", "tau": 0.0, "seed": self.config["seed"],
            "sampling_seed": plan.sampling_seed(member), "relay": None, "rendezvous": None,
            "answer_of": lambda text, truncated: cr.extract_answer(text, "digitsum", 3, truncated),
        }
        args = fake.GRPOConfig(seed=self.config["seed"], num_generations=4)
        t = self.Trainer(model=member["model"], reward_funcs=[tc.reward_function(holder)], args=args, cohort=cohort)
        holder["trainer"] = t
        return t

    def batch(self):
        # Two prompts x G = 4: prompt 0 (truth 7) votes 7,7,3 and one cut at the length cap;
        # prompt 1 (truth 2) votes 5,5,2 and one malformed.
        texts = ["1,4>7", "1,4>7", "1,4>3", "1,4>7", "3,5>5", "3,5>5", "3,5>2", "3,5"]
        ends = [True, True, True, False, True, True, True, True]
        ids = [[5, 6, fake.QWEN_EOS] if e else [5, 6, 7] for e in ends]
        inputs = [{"prompt": "1+3+3=", "answer": "7", "row": "s1p0"}] * 4 + [{"prompt": "3+2+7=", "answer": "2", "row": "s1p1"}] * 4
        return inputs, [x["prompt"] for x in inputs], texts, ids

    def test_training_rewards_are_the_lab_self_rewards_and_its_measurements_are_logged(self):
        import cohort_rewards as cr

        t = self.trainer_for("self")
        inputs, prompts, texts, ids = self.batch()
        (rewards,) = t._calculate_rewards(inputs, prompts, texts, ids)
        answers = ["7", "7", "3", None, "5", "5", "2", None]
        expected = cr.compute_rewards("self", answers, 2, 4, rng=cr.ballot_rng(self.config["seed"], "self", "A", 1)).rewards
        self.assertEqual(rewards, expected)
        self.assertEqual(rewards, [1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0])
        m = t._metrics["train"]
        self.assertEqual(m["cohort/pseudo_label_accuracy"], [0.5])  # 7 right, 5 wrong
        self.assertEqual(m["cohort/parseable_fraction"], [0.75])
        self.assertEqual(t._rl_step, 1)

    def test_the_oracle_sees_the_truth_and_evaluation_scores_pass_at_1_and_maj_at_g(self):
        t = self.trainer_for("oracle")
        inputs, prompts, texts, ids = self.batch()
        (rewards,) = t._calculate_rewards(inputs, prompts, texts, ids)
        self.assertEqual(rewards, [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0])
        t.model.training = False
        (held,) = t._calculate_rewards(inputs, prompts, texts, ids)
        self.assertEqual(held, rewards)
        self.assertEqual(t._metrics["eval"]["cohort/pass_at_1"], [0.375])
        self.assertEqual(t._metrics["eval"]["cohort/maj_at_g"], [0.5])
        self.assertEqual(t._rl_step, 1, "an evaluation is not an RL step")


class FinalEvaluationTest(unittest.TestCase):
    def control_after(self, step, max_steps, eval_steps, strategy="steps"):
        Callback = tc.build_final_evaluation(fake.TrainerCallback)
        args = types.SimpleNamespace(eval_strategy=types.SimpleNamespace(value=strategy), eval_steps=eval_steps)
        state = types.SimpleNamespace(global_step=step, max_steps=max_steps)
        control = types.SimpleNamespace(should_evaluate=False)
        return Callback().on_step_end(args, state, control).should_evaluate

    def test_the_last_step_is_evaluated_when_steps_are_not_a_multiple_of_the_interval(self):
        self.assertTrue(self.control_after(30, 30, 25))
        self.assertFalse(self.control_after(29, 30, 25))  # not the last step
        self.assertFalse(self.control_after(50, 50, 25))  # TRL's own schedule evaluates it already
        self.assertFalse(self.control_after(30, 30, 25, strategy="no"))


class MainTest(Base):
    def run_main(self, argv, env):
        old = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        try:
            return tc.main(argv)
        finally:
            for k, v in old.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v

    def test_a_second_process_of_a_peer_member_is_wired_for_several_processes(self):
        run_dir = Path(self.tmp.name) / "runs"
        argv = ["--arm", "peer", "--member", "B", "--run_id", "R", "--run_dir", str(run_dir), "--rendezvous_timeout", "5000"]
        fake.RANK.value, fake.RANK.world = 1, 2
        try:
            rc = self.run_main(argv, {"WORLD_SIZE": "2", "RANK": "1"})
        finally:
            fake.RANK.value, fake.RANK.world = 0, 1
        self.assertEqual(rc, 0)
        (trainer,) = fake.GRPOTrainer.instances
        kw = trainer.args.kwargs
        # device_map "auto" would spread each process's model over every visible GPU (TRL 0.26.2).
        self.assertEqual(kw["model_init_kwargs"], {"dtype": "float32", "device_map": None})
        self.assertGreater(kw["ddp_timeout"], 5000)
        self.assertEqual([type(c).__name__ for c in trainer.callbacks], ["FinalEvaluation"])
        self.assertIsInstance(trainer.cohort["relay"], RankRelay)
        self.assertGreater(trainer.cohort["relay"].timeout, 5000)
        b = next(m for m in self.config["members"] if m["id"] == "B")
        self.assertEqual(trainer.cohort["sampling_seed"], b["sampling_seed"])
        self.assertFalse((run_dir / "rendezvous").exists(), "only rank 0 joins the rendezvous")

    def test_one_process_keeps_trls_device_map(self):
        rc = self.run_main(["--arm", "self", "--member", "A", "--run_dir", str(Path(self.tmp.name) / "r")], {"WORLD_SIZE": "1", "RANK": "0"})
        self.assertEqual(rc, 0)
        (trainer,) = fake.GRPOTrainer.instances
        self.assertEqual(trainer.args.kwargs["model_init_kwargs"], {"dtype": "float32"})
        self.assertIsNone(trainer.cohort["relay"])

    def test_processes_that_must_find_each_other_need_a_run_id(self):
        rc = self.run_main(["--arm", "peer", "--member", "A", "--dry_run"], {"WORLD_SIZE": "1", "RANK": "0"})
        self.assertEqual(rc, 2)


if __name__ == "__main__":
    unittest.main()
