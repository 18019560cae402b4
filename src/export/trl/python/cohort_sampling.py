"""Sampling outside TRL's own loop, for the exported TRL project: the frozen teacher, which must
sample exactly as TRL samples the policy, and the per-member offset of vLLM's seed.

Imports torch and transformers only when a teacher is built, so the rest runs without them.
"""

from __future__ import annotations


def policy_generation_kwargs(args, tokenizer) -> dict:
    """The sampling settings TRL 0.26.2 gives the policy when it generates with transformers
    (grpo_trainer.py:694-710): the GRPOConfig's temperature, top_p, top_k, min_p and
    repetition_penalty (1.0 by default) and the tokenizer's own eos, whatever the model's
    generation_config says (Qwen's asks for repetition_penalty 1.05 and a second end token)."""
    kwargs = {
        "max_new_tokens": args.max_completion_length,
        "do_sample": True,
        "pad_token_id": tokenizer.pad_token_id,
        "bos_token_id": tokenizer.bos_token_id,
        "eos_token_id": tokenizer.eos_token_id,
        "temperature": args.temperature,
        "top_p": args.top_p,
        "top_k": args.top_k,
        "min_p": args.min_p,
        "repetition_penalty": args.repetition_penalty,
        "cache_implementation": args.cache_implementation,
    }
    if args.generation_kwargs is not None:
        kwargs.update(args.generation_kwargs)
    return kwargs


def cut_at_eos(ids: list, eos_id: int):
    """A generated row cut at the first eos, as TRL cuts the policy's (grpo_trainer.py:1505, the
    tokenizer's eos only): (kept ids, truncated). Truncated = no eos: cut at the length cap."""
    cut = next((k for k, t in enumerate(ids) if t == eos_id), None)
    return (ids, True) if cut is None else (ids[:cut], False)


def torch_dtype(torch, name):
    """A dtype name of model_init_kwargs ("float32", "bfloat16", "auto") as from_pretrained takes it."""
    return name if name in (None, "auto") or not isinstance(name, str) else getattr(torch, name)


class FrozenTeacher:
    """The frozen teacher (teacher arms): samples G completions per prompt from a member's starting
    model, on the main process, with the policy's sampling settings and dtype, so that the teacher
    arm differs from a peer arm only by the teacher not learning."""

    def __init__(self, model_id: str, device, args, chunk: int = 8):
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer, GenerationConfig

        self.torch = torch
        self.tok = AutoTokenizer.from_pretrained(model_id, padding_side="left")
        if self.tok.pad_token is None:
            self.tok.pad_token = self.tok.eos_token
        dtype = torch_dtype(torch, (args.model_init_kwargs or {}).get("dtype", "auto"))
        self.model = AutoModelForCausalLM.from_pretrained(model_id, dtype=dtype).to(device).eval()
        self.model.requires_grad_(False)
        # Replace the model's own generation_config, as TRL does for the policy
        # (trl/models/utils.py _override_model_generation_config, transformers#42762): otherwise
        # transformers merges the model's defaults into values left at theirs.
        self.generation_config = GenerationConfig(**policy_generation_kwargs(args, self.tok))
        self.model.generation_config = self.generation_config
        self.device = device
        self.chunk = chunk

    def sample(self, prompts: list, n: int) -> list:
        """n (text, truncated) pairs per prompt, prompt-major."""
        out = []
        for start in range(0, len(prompts), self.chunk):
            part = prompts[start : start + self.chunk]
            chat = isinstance(part[0], list)
            texts = [self.tok.apply_chat_template(p, tokenize=False, add_generation_prompt=True) if chat else p for p in part]
            enc = self.tok(texts, return_tensors="pt", padding=True, add_special_tokens=not chat).to(self.device)
            with self.torch.no_grad():
                gen = self.model.generate(**enc, generation_config=self.generation_config, num_return_sequences=n)
            for row in gen[:, enc["input_ids"].shape[1]:].tolist():
                ids, truncated = cut_at_eos(row, self.tok.eos_token_id)
                out.append((self.tok.decode(ids, skip_special_tokens=True), truncated))
        return out


def offset_vllm_seed(grpo_module, offset: int) -> None:
    """With --use_vllm (colocate), TRL 0.26.2 builds vLLM with seed=process_index // tp
    (grpo_trainer.py:661-671), the same in every member; add this member's sampling seed to it.
    (Not a per-request SamplingParams seed: that would make the G copies of a prompt identical.)"""
    original = grpo_module.LLM

    def llm(*args, **kwargs):
        kwargs["seed"] = int(kwargs.get("seed") or 0) + offset
        return original(*args, **kwargs)

    grpo_module.LLM = llm
