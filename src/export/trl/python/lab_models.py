"""Cohort Lab's own members as Hugging Face causal LMs, so that TRL trains the lab's model itself.

The lab's windowed MLP (Bengio et al. 2003's neural probabilistic LM; the lab's
src/core/models/mlp.ts) as a `PreTrainedModel` with generation:

    ctx_t  = [e(tok_{t-W+1}), ..., e(tok_t)]     W embeddings side by side, PAD before the start
    h      = GELU_tanh(Linear(ctx_t)), `layers` times
    logits = head(h)

It reads the lab's warm-start files (cohort-lab-warmstart, version 1: weights as base64 float32,
the lab's [in, out] layout) and the lab's character vocabulary, so a member exported with
`save_lab_member` starts RL from the very weights the lab's run of that seed started from. TRL
loads it by path like any model once `register()` has told transformers' Auto classes its type.

Prompts: the lab feeds BOS ('^') before every prompt; TRL tokenizes prompts without special
tokens, so train_cohort.py's `--prompt_style lab_bos` writes the '^' into the prompt text. The
left padding TRL adds is PAD ('_', id 0), which is what the lab's window holds before the start,
so a padded prompt gives the lab's logits at every real position.
"""

from __future__ import annotations

import base64
import json
import math
from pathlib import Path

import torch
from torch import nn
from transformers import AutoConfig, AutoModelForCausalLM, GenerationMixin, PretrainedConfig, PreTrainedModel
from transformers.modeling_outputs import CausalLMOutput

MLP_MODEL_TYPE = "cohort_lab_mlp"
WARM_START_FORMAT = "cohort-lab-warmstart"
PAD, BOS, EOS = "_", "^", "$"
# The lab's limit on one warm-start file (warmStartFile.ts MAX_WARM_START_VALUES): 16 MiB of float32.
MAX_VALUES = 4 * 1024 * 1024


class LabMLPConfig(PretrainedConfig):
    model_type = MLP_MODEL_TYPE

    def __init__(self, vocab_size=18, d_model=64, layers=2, window=6, pad_token_id=0, bos_token_id=1, eos_token_id=2, **kwargs):
        self.vocab_size = vocab_size
        self.d_model = d_model
        self.layers = layers
        self.window = window
        super().__init__(pad_token_id=pad_token_id, bos_token_id=bos_token_id, eos_token_id=eos_token_id, **kwargs)


class LabMLPForCausalLM(PreTrainedModel, GenerationMixin):
    """The lab's windowed MLP. No KV cache: a position needs only its last W tokens, so generation
    hands the model the last W tokens of the sequence at every step (prepare_inputs_for_generation)."""

    config_class = LabMLPConfig
    base_model_prefix = "mlp"
    main_input_name = "input_ids"
    _supports_cache_class = False

    def __init__(self, config: LabMLPConfig):
        super().__init__(config)
        V, D, L, W = config.vocab_size, config.d_model, config.layers, config.window
        self.wte = nn.Embedding(V, D)
        dims = [W * D] + [D] * L
        self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.head = nn.Linear(dims[-1], V)
        self.post_init()

    def _init_weights(self, module):
        # The lab's initialisation (mlp.ts mlpParams): embedding N(0, 1), weights N(0, 1/fan_in),
        # biases 0. A warm-started member overwrites all of it.
        if isinstance(module, nn.Embedding):
            nn.init.normal_(module.weight, std=1.0)
        elif isinstance(module, nn.Linear):
            nn.init.normal_(module.weight, std=module.in_features ** -0.5)
            nn.init.zeros_(module.bias)

    def get_input_embeddings(self):
        return self.wte

    def set_input_embeddings(self, value):
        self.wte = value

    def forward(self, input_ids=None, attention_mask=None, labels=None, logits_to_keep=0, return_dict=True, **kwargs):
        """input_ids [N, T] -> logits [N, T, V] (the last `logits_to_keep` positions when it is > 0).
        attention_mask is accepted and not needed: padding is PAD, which the window reads as the lab does."""
        W = self.config.window
        n, t = input_ids.shape
        keep = t if not logits_to_keep else min(int(logits_to_keep), t)
        start = t - keep
        padded = nn.functional.pad(input_ids, (W - 1, 0), value=self.config.pad_token_id)
        e = self.wte(padded[:, start:])  # [N, keep + W - 1, D]
        x = torch.cat([e[:, k : k + keep] for k in range(W)], dim=2)  # [N, keep, W*D], oldest slot first
        for lin in self.hidden:
            x = nn.functional.gelu(lin(x), approximate="tanh")
        logits = self.head(x)
        loss = None
        if labels is not None:
            loss = nn.functional.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), labels[:, 1:].reshape(-1), ignore_index=-100)
        return CausalLMOutput(loss=loss, logits=logits)

    def prepare_inputs_for_generation(self, input_ids, attention_mask=None, **kwargs):
        return {"input_ids": input_ids[:, -self.config.window :], "logits_to_keep": 1}

    def _reorder_cache(self, past_key_values, beam_idx):
        return past_key_values


def register() -> None:
    """Tell transformers' Auto classes the lab's model types (TRL loads a model by path through them)."""
    try:
        AutoConfig.register(MLP_MODEL_TYPE, LabMLPConfig)
        AutoModelForCausalLM.register(LabMLPConfig, LabMLPForCausalLM)
    except ValueError:
        pass  # already registered in this process


# ---------------------------------------------------------------------------------------------
# The lab's files
# ---------------------------------------------------------------------------------------------


def read_warm_start(path) -> dict:
    """A lab warm-start file: {"keyFields", "memberId", "bestValidation", "reachedTarget",
    "warmStartSteps", "weights": {name: float32 tensor}}. Checked as the lab checks it: format,
    version, names, shapes, counts and finite values."""
    text = Path(path).read_text(encoding="utf-8")
    if len(text) > MAX_VALUES * 2 + 2**20:
        raise ValueError(f"{path}: {len(text)} characters, more than a warm-start file holds")
    f = json.loads(text)
    if f.get("format") != WARM_START_FORMAT or f.get("version") != 1:
        raise ValueError(f"{path}: not a {WARM_START_FORMAT} file of version 1")
    weights, total = {}, 0
    for w in f["weights"]:
        shape = [int(s) for s in w["shape"]]
        n = math.prod(shape)
        total += n
        if total > MAX_VALUES:
            raise ValueError(f"{path}: more than {MAX_VALUES} values")
        raw = base64.b64decode(w["data"], validate=True)
        if len(raw) != 4 * n:
            raise ValueError(f"{path}: {w['name']} has {len(raw)} bytes for shape {shape}")
        t = torch.frombuffer(bytearray(raw), dtype=torch.float32).reshape(shape).clone()
        if not torch.isfinite(t).all():
            raise ValueError(f"{path}: {w['name']} has a value that is not finite")
        weights[w["name"]] = t
    return {**{k: f.get(k) for k in ("keyFields", "memberId", "bestValidation", "reachedTarget", "warmStartSteps")}, "weights": weights}


def mlp_from_lab(keyfields: dict, weights: dict, vocab_size: int) -> LabMLPForCausalLM:
    """The lab's MLP member with the lab's weights ([in, out] layout, torch's Linear is [out, in])."""
    m = keyfields["member"]
    if m["family"] != "mlp":
        raise ValueError(f"the member is a {m['family']}, not an mlp")
    config = LabMLPConfig(vocab_size=vocab_size, d_model=m["dModel"], layers=m["layers"], window=m["window"])
    model = LabMLPForCausalLM(config)
    lab = {"wte": (model.wte.weight, False), "head.w": (model.head.weight, True), "head.b": (model.head.bias, False)}
    for i, lin in enumerate(model.hidden):
        lab[f"hidden.{i}.w"] = (lin.weight, True)
        lab[f"hidden.{i}.b"] = (lin.bias, False)
    if set(lab) != set(weights):
        raise ValueError(f"the weights do not map: the lab's {sorted(weights)}, the model's {sorted(lab)}")
    with torch.no_grad():
        for name, (param, transposed) in lab.items():
            value = weights[name].t() if transposed else weights[name]
            if tuple(value.shape) != tuple(param.shape):
                raise ValueError(f"{name}: shape {tuple(weights[name].shape)} does not fit {tuple(param.shape)}")
            param.copy_(value)
    model.eval()
    return model


def lab_tokenizer(vocab: list):
    """A PreTrainedTokenizerFast with one token per character of the lab's vocabulary (ids =
    positions, as the lab's tokenizer.ts): pad '_', eos '$'; '^' (the lab's BOS) is an ordinary
    character, written into the prompt text."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    if len(set(vocab)) != len(vocab) or any(len(ch) != 1 for ch in vocab):
        raise ValueError(f"the vocabulary must be distinct single characters, got {vocab!r}")
    for special in (PAD, BOS, EOS):
        if special not in vocab:
            raise ValueError(f"the vocabulary has no {special!r}")
    core = Tokenizer(models.WordLevel({ch: i for i, ch in enumerate(vocab)}, unk_token=PAD))
    core.pre_tokenizer = pre_tokenizers.Split(Regex("."), behavior="isolated")
    core.decoder = decoders.Fuse()
    return PreTrainedTokenizerFast(
        tokenizer_object=core, pad_token=PAD, eos_token=EOS, unk_token=PAD, clean_up_tokenization_spaces=False,
        model_input_names=["input_ids", "attention_mask"],
    )


def save_lab_member(warm_start_path, vocab: list, out_dir) -> dict:
    """Write the member of a lab warm-start file as a model folder TRL loads by path (config,
    weights, tokenizer, generation settings); returns what the folder holds."""
    ws = read_warm_start(warm_start_path)
    kf = ws["keyFields"]
    if kf.get("vocab") is not None and kf["vocab"] != "".join(vocab):
        raise ValueError(f"the warm start's vocabulary {kf['vocab']!r} is not {''.join(vocab)!r}")
    model = mlp_from_lab(kf, ws["weights"], len(vocab))
    tok = lab_tokenizer(vocab)
    model.generation_config.pad_token_id = tok.pad_token_id
    model.generation_config.eos_token_id = tok.eos_token_id
    model.generation_config.bos_token_id = vocab.index(BOS)
    model.generation_config.use_cache = False
    model.save_pretrained(out_dir)
    tok.save_pretrained(out_dir)
    return {
        "member": ws["memberId"], "path": str(Path(out_dir).resolve()), "parameters": sum(p.numel() for p in model.parameters()),
        "warm_steps": ws["warmStartSteps"], "reached": bool(ws["reachedTarget"]), "validation": ws["bestValidation"],
        "target": kf["member"]["warmStartTarget"], "attempts": 1,
    }
