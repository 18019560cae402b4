"""Tests of the exported cohort_plan.py against the exported config.json (standard library only)."""

import json
import os
import sys
import tempfile
import unittest
from pathlib import Path

EXPORT = Path(os.environ["COHORT_EXPORT_DIR"])
sys.path.insert(0, str(EXPORT))

import cohort_plan as plan  # noqa: E402


class PlanTest(unittest.TestCase):
    def setUp(self):
        self.config = plan.load_config(EXPORT / "config.json")
        self.arm = self.config["arms"][0]
        self.member = self.arm["members"][0]

    def test_one_rl_step_is_one_generation_batch_of_b_times_g_completions(self):
        B, G = self.config["prompts_per_step"], self.config["grpo"]["num_generations"]
        for world in (1, 2, 4, 8):
            kw = plan.grpo_config_kwargs(self.config, self.arm["id"], self.member, world, "out")
            self.assertEqual(kw["per_device_train_batch_size"] * world * kw["gradient_accumulation_steps"], B * G)
            self.assertLessEqual(kw["per_device_train_batch_size"], 32)
            self.assertEqual(kw["per_device_eval_batch_size"] % G, 0)
            self.assertEqual(kw["num_generations"], G)
        with self.assertRaises(ValueError) as ctx:
            plan.batch_plan(B, G, 3)
        self.assertIn("do not split over 3 processes", str(ctx.exception))

    def test_the_config_values_and_overrides_reach_grpo_config(self):
        kw = plan.grpo_config_kwargs(self.config, self.arm["id"], self.member, 1, "out/x", overrides={"learning_rate": 1e-6})
        self.assertEqual(kw["learning_rate"], 1e-6)
        for key in ("beta", "epsilon", "loss_type", "scale_rewards", "num_iterations", "max_steps", "temperature", "max_completion_length", "seed"):
            self.assertEqual(kw[key], self.config["grpo"][key])
        self.assertEqual(kw["output_dir"], "out/x")
        self.assertFalse(kw["shuffle_dataset"])
        self.assertTrue(plan.grpo_config_kwargs(self.config, self.arm["id"], self.member, 1, "o", dataset="gsm8k")["shuffle_dataset"])

    def test_each_member_samples_from_its_own_seed_and_shares_the_data_seed(self):
        seeds = [plan.sampling_seed(m) for m in self.config["members"]]
        self.assertEqual(seeds, [self.config["seed"] + 1000 * (k + 1) for k in range(len(seeds))])
        kw = plan.grpo_config_kwargs(self.config, self.arm["id"], self.member, 1, "o")
        self.assertEqual(kw["seed"], self.config["seed"])  # TRL's RepeatSampler: the same data order in every member
        clones = {**self.config, "members": [{**m, "sampling_seed": 7} for m in self.config["members"]]}
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "clones.json"
            path.write_text(json.dumps(clones))
            with self.assertRaises(ValueError) as ctx:
                plan.load_config(path)
        self.assertIn("its own whole-number sampling_seed", str(ctx.exception))

    def test_several_processes_load_without_device_map_auto_and_outwait_the_rendezvous(self):
        one = plan.grpo_config_kwargs(self.config, self.arm["id"], self.member, 1, "o", wait_s=3600)
        two = plan.grpo_config_kwargs(self.config, self.arm["id"], self.member, 2, "o", wait_s=3600)
        self.assertEqual(one["model_init_kwargs"], {"dtype": "float32"})  # TRL 0.26.2's own device_map "auto"
        self.assertEqual(two["model_init_kwargs"], {"dtype": "float32", "device_map": None})
        self.assertEqual(two["ddp_timeout"], 3600 + 600)
        self.assertEqual(plan.grpo_config_kwargs(self.config, self.arm["id"], self.member, 2, "o")["ddp_timeout"], 1800)
        bf16 = plan.grpo_config_kwargs(self.config, self.arm["id"], self.member, 4, "o", overrides={"model_init_kwargs": {"dtype": "bfloat16"}})
        self.assertEqual(bf16["model_init_kwargs"], {"dtype": "bfloat16", "device_map": None})
        with self.assertRaises(ValueError):
            plan.grpo_config_kwargs(self.config, self.arm["id"], self.member, 1, "o", overrides={"model_init_kwargs": "bf16"})

    def test_unknown_arms_and_members_are_named(self):
        with self.assertRaises(ValueError) as ctx:
            plan.find_slot(self.config, "nope", self.member)
        self.assertIn("no arm 'nope'", str(ctx.exception))
        with self.assertRaises(ValueError) as ctx:
            plan.find_slot(self.config, self.arm["id"], "Z")
        self.assertIn("not 'Z'", str(ctx.exception))

    def test_overrides_parse_as_json_or_text(self):
        self.assertEqual(plan.parse_override("bf16=false"), ("bf16", False))
        self.assertEqual(plan.parse_override("lr_scheduler_type=cosine"), ("lr_scheduler_type", "cosine"))
        with self.assertRaises(ValueError):
            plan.parse_override("nokey")


if __name__ == "__main__":
    unittest.main()
