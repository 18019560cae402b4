#!/usr/bin/env python3
"""Tiny lab-sized causal LMs for running the TRL export on CPU (npm run trl-check).

    python tiny_lab.py EXPORT_DIR OUT_DIR --vocab VOCAB.json [--member A ...]

For every member of the exported experiment (EXPORT_DIR/spec.json), offline (no hub):
  - a character tokenizer over the lab's vocabulary (VOCAB.json, written by the lab from
    src/core/tasks/tokenizer.ts), built with `tokenizers` (WordLevel, one token per character,
    tokens joined back without spaces) and saved as a PreTrainedTokenizerFast: pad '_', eos '$';
  - a GPT-2 of a few layers (transformers GPT2Config; about the lab's parameter count) from the
    member's initSeed under the experiment's seed, saved with save_pretrained with the tokenizer;
  - the lab's warm start: supervised next-token training on the member's share of the labeled
    pool (data/labeled.jsonl: warmStartExamples problems drawn by its dataSeed, the next ones held
    back for validation), completion-only loss, Adam at warmStart.learningRate and batchSize,
    stopping at the first step where the probability of reproducing the validation references
    (the lab's referenceProbability) reaches the member's warmStartTarget.

The prompt is the lab's (e.g. '8+3+9='), without the lab's BOS: TRL tokenizes prompts with
add_special_tokens=False, so the model is trained on what TRL will give it. It prints one JSON line
per member (steps, reached, validation value, parameters, seconds).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

PAD, EOS = "_", "$"


def read_jsonl(path: Path) -> list:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def build_tokenizer(vocab: list):
    """A PreTrainedTokenizerFast with one token per character of `vocab` (ids = positions)."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    if len(set(vocab)) != len(vocab) or any(len(ch) != 1 for ch in vocab):
        raise ValueError(f"the vocabulary must be distinct single characters, got {vocab!r}")
    for special in (PAD, EOS):
        if special not in vocab:
            raise ValueError(f"the vocabulary has no {special!r}")
    core = Tokenizer(models.WordLevel({ch: i for i, ch in enumerate(vocab)}, unk_token=PAD))
    core.pre_tokenizer = pre_tokenizers.Split(Regex("."), behavior="isolated")
    core.decoder = decoders.Fuse()
    return PreTrainedTokenizerFast(
        tokenizer_object=core, pad_token=PAD, eos_token=EOS, unk_token=PAD, clean_up_tokenization_spaces=False,
        # No token_type_ids: GPT-2 would add the embedding of token 0 to every position where
        # generate() passes them (the tokenizer's default output), and to none in training.
        model_input_names=["input_ids", "attention_mask"],
    )


def parameter_count(model) -> int:
    return sum(p.numel() for p in model.parameters())


def build_model(tok, seed: int, n_embd: int, n_layer: int, n_head: int, n_positions: int):
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(seed)
    config = GPT2Config(
        vocab_size=len(tok), n_positions=n_positions, n_embd=n_embd, n_layer=n_layer, n_head=n_head,
        bos_token_id=tok.eos_token_id, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id,
        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
    )
    return GPT2LMHeadModel(config)


def member_seed(seed: int, member_seed_value: int) -> int:
    """A member's stream under the experiment's seed, as the lab derives every member stream from
    the root seed: another experiment seed gives other weights and other warm-start data."""
    return seed * 1_000_003 + member_seed_value


def labeled_split(pool: list, examples: int, data_seed: int, validation: int = 200):
    """The member's warm-start problems and its held-back validation problems, by its data seed."""
    shuffled = list(pool)
    random.Random(data_seed).shuffle(shuffled)
    n = min(examples, len(shuffled))
    return shuffled[:n], shuffled[n : n + validation]


def encode_batch(tok, rows: list, length: int):
    """Prompt + reference completion + EOS, right-padded; mask 1 where the next token is a completion token."""
    import torch

    ids = torch.full((len(rows), length), tok.pad_token_id, dtype=torch.long)
    mask = torch.zeros((len(rows), length), dtype=torch.float32)
    for i, r in enumerate(rows):
        p = tok(r["lab_prompt"], add_special_tokens=False)["input_ids"]
        c = tok(r["lab_completion"], add_special_tokens=False)["input_ids"] + [tok.eos_token_id]
        seq = p + c
        if len(seq) > length:
            raise ValueError(f"{r['id']}: {len(seq)} tokens exceed {length}")
        ids[i, : len(seq)] = torch.tensor(seq)
        mask[i, len(p) - 1 : len(seq) - 1] = 1
    return ids, mask


def completion_logp(model, ids, mask):
    """Sum over completion tokens of log p(next token), per row (teacher-forced)."""
    import torch

    logits = model(input_ids=ids).logits[:, :-1]
    logp = torch.log_softmax(logits, dim=-1).gather(2, ids[:, 1:].unsqueeze(2)).squeeze(2)
    return (logp * mask[:, :-1]).sum(1), mask[:, :-1].sum()


def warm_start(model, tok, train: list, validation: list, *, target: float, steps: int, batch: int, lr: float, seed: int, length: int):
    import torch

    torch.manual_seed(seed)
    order = random.Random(seed)
    x, m = encode_batch(tok, train, length)
    vx, vm = encode_batch(tok, validation, length)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    value, step = 0.0, 0
    for step in range(1, steps + 1):
        model.train()
        idx = order.sample(range(len(train)), min(batch, len(train)))
        lp, n = completion_logp(model, x[idx], m[idx])
        loss = -lp.sum() / n
        opt.zero_grad()
        loss.backward()
        opt.step()
        model.eval()
        with torch.no_grad():
            value = float(torch.exp(completion_logp(model, vx, vm)[0]).mean())
        if target > 0 and value >= target:
            return step, True, value
    return step, target <= 0, value


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("export_dir")
    p.add_argument("out_dir")
    p.add_argument("--vocab", required=True, help="JSON list: the lab's vocabulary, index = token id")
    p.add_argument("--member", action="append", default=None, help="only these members (default: all)")
    p.add_argument("--n_embd", type=int, default=32)
    p.add_argument("--n_layer", type=int, default=2)
    p.add_argument("--n_head", type=int, default=2)
    p.add_argument("--max_warm_steps", type=int, default=None, help="default: the member's warmStartSteps x 20 (a transformer sits on a plateau longer than the lab's MLP)")
    p.add_argument("--retries", type=int, default=2, help="new init seeds to try when a member misses its target")
    args = p.parse_args(argv)

    import torch

    torch.set_num_threads(1)
    export = Path(args.export_dir)
    spec = json.loads((export / "spec.json").read_text(encoding="utf-8"))
    with open(args.vocab, encoding="utf-8") as f:
        vocab = json.load(f)
    pool = read_jsonl(export / "data" / "labeled.jsonl")
    length = max(len(r["lab_prompt"]) + len(r["lab_completion"]) + 1 for r in pool)
    tok = build_tokenizer(vocab)
    out = Path(args.out_dir)
    for member in spec["members"]:
        if args.member and member["id"] not in args.member:
            continue
        t0 = time.perf_counter()
        init_seed, data_seed = member_seed(spec["seed"], member["initSeed"]), member_seed(spec["seed"], member["dataSeed"])
        train, validation = labeled_split(pool, member["warmStartExamples"], data_seed)
        # As the lab does with its transformers: a member that misses its target is retried from
        # the next init seed rather than entering RL half-trained.
        for attempt in range(args.retries + 1):
            model = build_model(tok, init_seed + attempt, args.n_embd, args.n_layer, args.n_head, n_positions=length + 4)
            steps, reached, value = warm_start(
                model, tok, train, validation,
                target=member["warmStartTarget"], steps=args.max_warm_steps or member["warmStartSteps"] * 20,
                batch=spec["warmStart"]["batchSize"], lr=spec["warmStart"]["learningRate"], seed=data_seed, length=length,
            )
            if reached:
                break
        model.generation_config.pad_token_id = tok.pad_token_id
        model.generation_config.eos_token_id = tok.eos_token_id
        path = out / member["id"]
        model.save_pretrained(path)
        tok.save_pretrained(path)
        print(json.dumps({
            "member": member["id"], "path": str(path.resolve()), "parameters": parameter_count(model),
            "warm_steps": steps, "attempts": attempt + 1, "reached": reached, "target": member["warmStartTarget"], "validation": round(value, 4),
            "seconds": round(time.perf_counter() - t0, 2),
        }), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
