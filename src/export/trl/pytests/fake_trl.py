"""Stand-ins for the few entry points of torch, accelerate, transformers, datasets and TRL that
train_cohort.py touches, so that its own logic (seeds, the rank relay, the teacher's sampling
settings, the final evaluation, the wiring in main) runs here without them. TRL cannot be installed
where the lab is tested, and no GPU is there. What they model, with the source they follow:

  - GRPOTrainer.__init__ seeds with set_seed(args.seed, device_specific=True), as TRL 0.26.2 does
    (trl/trainer/grpo_trainer.py:609), and keeps what it was given;
  - accelerate's set_seed adds the process index when device_specific (accelerate/utils/random.py);
  - broadcast_object_list is a collective: here it fails the test, since no rank may wait in one
    while rank 0 waits for a peer;
  - a model's generation_config carries its own sampling defaults (Qwen2.5-Instruct's: repetition
    penalty 1.05, top_k 20, two end tokens), which the teacher must not use.

install() puts them in sys.modules; the rank of the calling thread is RANK.value (a thread plays one
process). What they cannot show (real sampling, NCCL, device placement) needs a GPU run.
"""

from __future__ import annotations

import collections
import sys
import threading
import types

RANK = threading.local()
SEEDS: list = []  # (thread rank, effective seed) of every set_seed call, in order
COLLECTIVES: list = []


def rank() -> int:
    return getattr(RANK, "value", 0)


def world() -> int:
    return getattr(RANK, "world", 1)


# -- torch -------------------------------------------------------------------------------------


class Tensor:
    """A nested list with the few tensor operations the script uses."""

    def __init__(self, rows):
        self.rows = rows

    def tolist(self):
        return self.rows

    @property
    def shape(self):
        return (len(self.rows), len(self.rows[0]) if self.rows and isinstance(self.rows[0], list) else 0)

    def unsqueeze(self, dim):
        assert dim == 1
        return Tensor([[x] for x in self.rows])

    def repeat(self, a, b):
        assert a == 1
        return Tensor([r * b for r in self.rows])

    def __getitem__(self, index):
        rows, cols = index
        assert rows == slice(None)
        return Tensor([r[cols] for r in self.rows])

    def to(self, _device):
        return self


class _NoGrad:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _torch():
    torch = types.ModuleType("torch")
    torch.float32 = "torch.float32"
    torch.bfloat16 = "torch.bfloat16"
    torch.tensor = lambda data, dtype=None, device=None: Tensor(list(data))
    torch.no_grad = _NoGrad
    return torch


# -- accelerate --------------------------------------------------------------------------------


def set_seed(seed, device_specific=False, deterministic=False):
    effective = seed + (rank() if device_specific else 0)
    SEEDS.append((rank(), effective))


def broadcast_object_list(object_list, from_process=0):
    COLLECTIVES.append(("broadcast_object_list", rank()))
    raise AssertionError(f"rank {rank()} waited in a collective (broadcast_object_list)")


def gather_object(object):
    raise AssertionError("gather_object is not modelled here")


def _accelerate():
    accelerate = types.ModuleType("accelerate")
    utils = types.ModuleType("accelerate.utils")
    utils.set_seed = set_seed
    utils.broadcast_object_list = broadcast_object_list
    utils.gather_object = gather_object
    accelerate.utils = utils
    return accelerate, utils


class Accelerator:
    def __init__(self):
        self.process_index = rank()
        self.num_processes = world()
        self.is_main_process = self.process_index == 0
        self.device = f"cuda:{self.process_index}"


# -- transformers ------------------------------------------------------------------------------


class TrainerCallback:
    pass


class GenerationConfig:
    def __init__(self, **kwargs):
        self.kwargs = dict(kwargs)
        for k, v in kwargs.items():
            setattr(self, k, v)


QWEN_EOS, QWEN_ENDOFTEXT = 151645, 151643


class FakeTokenizer:
    eos_token_id = QWEN_EOS
    pad_token_id = QWEN_ENDOFTEXT
    bos_token_id = None
    pad_token = "<|endoftext|>"
    eos_token = "<|im_end|>"

    @classmethod
    def from_pretrained(cls, model_id, **kwargs):
        return cls()

    def apply_chat_template(self, messages, tokenize=False, add_generation_prompt=True):
        return "".join(m["content"] for m in messages)

    def __call__(self, texts, **kwargs):
        return _Encoding({"input_ids": Tensor([[1, 2] for _ in texts])})

    def decode(self, ids, skip_special_tokens=True):
        return " ".join(str(t) for t in ids if not (skip_special_tokens and t in (QWEN_EOS, QWEN_ENDOFTEXT)))


class _Encoding(dict):
    def to(self, _device):
        return self


class FakeModel:
    """A causal LM whose generate returns `script` (prompt ids + completion ids per returned row)."""

    script: list = []
    loaded: list = []

    def __init__(self):
        # The model's own defaults, as in Qwen2.5-Instruct's generation_config.json.
        self.generation_config = GenerationConfig(repetition_penalty=1.05, top_k=20, top_p=0.8, eos_token_id=[QWEN_EOS, QWEN_ENDOFTEXT])
        self.generate_calls = []

    @classmethod
    def from_pretrained(cls, model_id, **kwargs):
        FakeModel.loaded.append((model_id, kwargs))
        return cls()

    def to(self, _device):
        return self

    def eval(self):
        return self

    def requires_grad_(self, _flag):
        return self

    def generate(self, **kwargs):
        self.generate_calls.append(kwargs)
        return Tensor([[1, 2] + row for row in FakeModel.script])


def _transformers():
    transformers = types.ModuleType("transformers")
    transformers.TrainerCallback = TrainerCallback
    transformers.GenerationConfig = GenerationConfig
    transformers.AutoTokenizer = FakeTokenizer
    transformers.AutoModelForCausalLM = FakeModel
    return transformers


# -- datasets, TRL -----------------------------------------------------------------------------


class Dataset(list):
    @classmethod
    def from_list(cls, rows):
        return cls(rows)


class GRPOConfig:
    """Keeps its keyword arguments as attributes (TRL's dataclass, without its checks)."""

    def __init__(self, **kwargs):
        self.kwargs = dict(kwargs)
        defaults = {"top_k": None, "min_p": None, "repetition_penalty": 1.0, "generation_kwargs": None, "cache_implementation": None}
        for k, v in {**defaults, **kwargs}.items():
            setattr(self, k, v)


class GRPOTrainer:
    """TRL's trainer, reduced to what the subclass relies on at construction."""

    instances: list = []

    def __init__(self, model=None, reward_funcs=None, args=None, train_dataset=None, eval_dataset=None, callbacks=None, **kwargs):
        self.model_id = model
        self.model = types.SimpleNamespace(training=True)
        self.reward_funcs = list(reward_funcs or [])
        self.num_generations = getattr(args, "num_generations", None)
        self.num_generations_eval = getattr(args, "num_generations_eval", None) or self.num_generations
        self.eos_token_id, self.pad_token_id = QWEN_EOS, QWEN_ENDOFTEXT
        self._metrics = {"train": collections.defaultdict(list), "eval": collections.defaultdict(list)}
        self.args = args
        self.callbacks = list(callbacks or [])
        self.accelerator = Accelerator()
        self.saved = None
        self.state = types.SimpleNamespace(log_history=[{"step": 0, "eval_reward": 0.5}])
        set_seed(args.seed, device_specific=True)  # grpo_trainer.py:609 (v0.26.2)
        GRPOTrainer.instances.append(self)

    def _calculate_rewards(self, inputs, prompts, completions, completion_ids_list):
        """How TRL 0.26.2 calls a reward function (grpo_trainer.py _calculate_rewards): the
        prompts, completions and completion ids of this process, every other column of the
        inputs as a list, and trainer_state; one reward per completion (None: no reward)."""
        keys = [key for key in inputs[0] if key not in ["prompt", "completion", "completion_ids"]]
        reward_kwargs = {key: [example[key] for example in inputs] for key in keys}
        reward_kwargs["trainer_state"] = self.state
        return [
            list(reward_func(prompts=prompts, completions=completions, completion_ids=completion_ids_list, **reward_kwargs))
            for reward_func in self.reward_funcs
        ]

    def train(self):
        pass

    def save_model(self, path):
        self.saved = path


def install() -> None:
    """Put the stand-ins in sys.modules (before train_cohort imports any of them)."""
    accelerate, utils = _accelerate()
    trl = types.ModuleType("trl")
    trl.GRPOTrainer = GRPOTrainer
    trl.GRPOConfig = GRPOConfig
    datasets = types.ModuleType("datasets")
    datasets.Dataset = Dataset
    sys.modules.update(
        {
            "torch": _torch(),
            "accelerate": accelerate,
            "accelerate.utils": utils,
            "transformers": _transformers(),
            "datasets": datasets,
            "trl": trl,
        }
    )


def reset() -> None:
    SEEDS.clear()
    COLLECTIVES.clear()
    GRPOTrainer.instances.clear()
    FakeModel.loaded.clear()
    FakeModel.script = []
