"""The stand-ins of fake_trl.py against the real, installed TRL stack: every name the exported
train_cohort.py uses and the fake models exists in the installed packages with the parameters the
fake gives it, TRL calls a reward function as the fake does (and the script overrides no TRL
method), and every GRPOConfig
field the export sets is a field of the installed GRPOConfig. Names and signatures are read from
the installed packages (inspect), never from a copy. Skipped, with the reason, where TRL is not
installed (the lab's own test run: npm run trl-check runs it in the venv it installs).

Run with COHORT_EXPORT_DIR set to an exported project (its config.json gives the fields)."""

import dataclasses
import importlib
import inspect
import os
import re
import sys
import unittest
from pathlib import Path

EXPORT = Path(os.environ["COHORT_EXPORT_DIR"])
sys.path.insert(0, str(EXPORT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

try:
    import trl  # noqa: F401  (the real one: fake_trl.install() is never called in this file)

    REASON = None
except ImportError as e:
    REASON = f"TRL is not installed here ({e}); npm run trl-check installs the pinned versions and runs this test"

import fake_trl as fake  # noqa: E402
import cohort_plan as plan  # noqa: E402


def params(fn) -> list:
    return [p for p in inspect.signature(fn).parameters if p not in ("self", "args", "kwargs")]


@unittest.skipIf(REASON is not None, REASON or "")
class SurfaceTest(unittest.TestCase):
    def assert_params_within(self, fake_fn, real_fn, what):
        missing = [p for p in params(fake_fn) if p not in inspect.signature(real_fn).parameters]
        self.assertEqual(missing, [], f"{what}: the fake takes {missing}, which the installed one does not")

    def test_the_pinned_trl_is_installed(self):
        self.assertEqual(trl.__version__, plan.TRL_VERSION, "requirements.txt pins the TRL the override was checked against")

    def test_trl_calls_a_reward_function_as_the_fake_does(self):
        """The exported script overrides no TRL method: its rewards go through TRL's reward-function
        call, which the fake models (prompts, completions, completion_ids, every other column of
        the inputs as a list, trainer_state). Read from the installed _calculate_rewards."""
        from trl import GRPOTrainer

        real = inspect.getsource(GRPOTrainer._calculate_rewards)
        fake_source = inspect.getsource(fake.GRPOTrainer._calculate_rewards)
        call = re.compile(r"reward_func\(\s*prompts=prompts,\s*completions=completions,\s*completion_ids=completion_ids_list,\s*\*\*reward_kwargs\s*\)")
        columns = 'keys = [key for key in inputs[0] if key not in ["prompt", "completion", "completion_ids"]]'
        for name, source in (("installed", real), ("fake", fake_source)):
            self.assertRegex(source, call, f"the {name} TRL no longer calls reward functions with prompts=, completions=, completion_ids=")
            self.assertIn(columns, source, f"the {name} TRL passes other dataset columns")
            self.assertIn('reward_kwargs["trainer_state"] = self.state', source)
        self.assertEqual(
            tuple(inspect.signature(GRPOTrainer._calculate_rewards).parameters),
            tuple(inspect.signature(fake.GRPOTrainer._calculate_rewards).parameters),
        )
        self.assertIn('mode = "train" if self.model.training else "eval"', inspect.getsource(GRPOTrainer._generate_and_score_completions))

    def test_the_script_overrides_no_method_of_the_installed_trainer(self):
        import train_cohort as tc
        from trl import GRPOTrainer

        Cohort = tc.build_trainer_class()
        own = {k for k in vars(Cohort) if callable(vars(Cohort)[k])} - {"__init__"}
        clashes = sorted(k for k in own if any(k in vars(base) for base in GRPOTrainer.__mro__))
        self.assertEqual(clashes, [], "methods of the exported trainer that replace TRL's")

    def test_the_trainer_takes_what_the_script_passes_and_has_what_it_reads(self):
        from trl import GRPOTrainer

        self.assert_params_within(fake.GRPOTrainer.__init__, GRPOTrainer.__init__, "GRPOTrainer.__init__")
        for name in ("model", "reward_funcs", "args", "train_dataset", "eval_dataset", "callbacks"):
            self.assertIn(name, inspect.signature(GRPOTrainer.__init__).parameters)
        for method in ("train", "save_model", "evaluate"):
            self.assertTrue(callable(getattr(GRPOTrainer, method, None)), method)
        # Attributes the override reads, set in the installed trainer's constructor (or Trainer's).
        from transformers import Trainer

        source = "".join(
            inspect.getsource(f) for f in (GRPOTrainer.__init__, Trainer.__init__, Trainer.create_accelerator_and_postprocess)
        )
        for attr in ("num_generations", "num_generations_eval", "eos_token_id", "pad_token_id", "_metrics", "reward_funcs", "accelerator", "state"):
            self.assertTrue(re.search(rf"self\.{attr}\s*[:=]", source), f"GRPOTrainer (or Trainer) no longer sets self.{attr}")

    def test_every_grpo_config_field_the_export_sets_exists(self):
        from trl import GRPOConfig

        fields = {f.name for f in dataclasses.fields(GRPOConfig)}
        config = plan.load_config(EXPORT / "config.json")
        arm = config["arms"][0]
        kwargs = plan.grpo_config_kwargs(config, arm["id"], arm["members"][0], 2, "/tmp/unused", overrides={"use_cpu": True, "bf16": False})
        self.assertEqual(sorted(set(kwargs) - fields), [], "GRPOConfig fields the export sets that the installed TRL lacks")
        self.assertEqual(sorted(set(fake.GRPOConfig().__dict__) - {"kwargs"} - fields), [], "the fake's GRPOConfig defaults")

    def test_accelerate_transformers_and_datasets_have_the_faked_entry_points(self):
        import accelerate.utils as au
        import datasets
        import transformers

        self.assert_params_within(fake.set_seed, au.set_seed, "accelerate.utils.set_seed")
        self.assert_params_within(fake.broadcast_object_list, au.broadcast_object_list, "accelerate.utils.broadcast_object_list")
        self.assert_params_within(fake.gather_object, au.gather_object, "accelerate.utils.gather_object")
        for name in ("TrainerCallback", "GenerationConfig", "AutoTokenizer", "AutoModelForCausalLM"):
            self.assertTrue(hasattr(transformers, name), name)
        self.assertTrue(callable(getattr(transformers.TrainerCallback, "on_step_end", None)))
        self.assertTrue(callable(getattr(datasets.Dataset, "from_list", None)))
        for name in ("from_pretrained",):
            self.assertTrue(callable(getattr(transformers.AutoTokenizer, name)))
            self.assertTrue(callable(getattr(transformers.AutoModelForCausalLM, name)))
        importlib.import_module("trl.trainer.grpo_trainer")  # offset_vllm_seed patches its LLM name


if __name__ == "__main__":
    unittest.main()
