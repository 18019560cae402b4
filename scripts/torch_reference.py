#!/usr/bin/env python3
"""PyTorch reference for one RL step of the lab's default cohort (a measurement, not a test).

    python3 scripts/torch_reference.py [--models 6] [--repeats 5] [...]      prints one JSON line

The same windowed MLP as src/core/models/mlp.ts: token embedding, a window of the last W tokens
(left-padded with PAD) side by side, `layers` GELU(tanh) hidden layers of width d_model, a linear
head over the 18-token vocabulary. The same RL step shape as the lab: for each of `models` models,
a rollout of B prompts x G samples with L new tokens by Gumbel-max sampling, then one GRPO update
(clipped surrogate at rho = 1, 'grpo' normalisation: mean over each completion's tokens, then over
completions; global grad-norm clip 1; Adam). The rollout is timed two ways: recomputing the whole
fixed-length sequence for every new token, and computing only the new position (the MLP needs only
its window; the lab's rollout decodes this way since the cohort was stacked). The models run one
after another, each with its own weights and Adam. Single thread (torch.set_num_threads(1)); each time is
the median of `repeats` runs after 2 warm-up runs. Prompts and rewards are random: the work, not
the learning, is measured.

npm run bench runs it when `import torch` works (Debian: apt-get install python3-torch); it is
never a dependency of the lab. Debian's torch calls the system BLAS chosen by update-alternatives:
the reference BLAS is ~7x slower on these matrices than OpenBLAS (apt-get install
libopenblas0-pthread), so the JSON names the BLAS library that was loaded.
"""
import os

# One BLAS thread too (OpenBLAS ignores torch.set_num_threads in Debian's build); before torch loads.
for var in ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS'):
    os.environ[var] = '1'

import argparse  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F

PAD_ID, BOS_ID, EOS_ID = 0, 1, 2


class WindowMLP(torch.nn.Module):
    def __init__(self, vocab, d_model, layers, window):
        super().__init__()
        self.window = window
        self.wte = torch.nn.Embedding(vocab, d_model)
        torch.nn.init.normal_(self.wte.weight, std=1.0)
        dims = [window * d_model] + [d_model] * layers
        self.hidden = torch.nn.ModuleList(torch.nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))
        for lin in self.hidden:
            torch.nn.init.normal_(lin.weight, std=lin.in_features ** -0.5)
            torch.nn.init.zeros_(lin.bias)
        self.head = torch.nn.Linear(dims[-1], vocab)
        torch.nn.init.normal_(self.head.weight, std=dims[-1] ** -0.5)
        torch.nn.init.zeros_(self.head.bias)

    def mlp(self, ctx):
        x = ctx
        for lin in self.hidden:
            x = F.gelu(lin(x), approximate='tanh')
        return self.head(x)

    def forward(self, tokens):
        """tokens [N, T] -> logits [N, T, V] (every position sees its W-token window)."""
        n, t = tokens.shape
        padded = F.pad(tokens, (self.window - 1, 0), value=PAD_ID)
        e = self.wte(padded)  # [N, T+W-1, D]
        ctx = torch.cat([e[:, k:k + t] for k in range(self.window)], dim=2)  # [N, T, W*D]
        return self.mlp(ctx)

    def last(self, window_tokens):
        """window_tokens [N, W] -> logits [N, V] of the position after them."""
        return self.mlp(self.wte(window_tokens).flatten(1))


def gumbel_max(logits, temperature):
    u = torch.rand_like(logits).clamp_(1e-20, 1.0)
    return torch.argmax(logits / temperature - torch.log(-torch.log(u)), dim=-1)


@torch.no_grad()
def rollout(model, prompts, new_tokens, temperature, incremental):
    n, p = prompts.shape
    w = model.window
    seq = torch.full((n, p + new_tokens), PAD_ID, dtype=torch.long)
    seq[:, :p] = prompts
    padded = F.pad(seq, (w - 1, 0), value=PAD_ID)  # only for the incremental path
    for t in range(new_tokens):
        pos = p + t  # position being sampled
        if incremental:
            logits = model.last(padded[:, pos:pos + w])  # tokens pos-W .. pos-1 (padded offset W-1)
        else:
            logits = model(seq)[:, pos - 1]  # the whole fixed-length sequence every token
        tok = gumbel_max(logits, temperature)
        seq[:, pos] = tok
        padded[:, pos + w - 1] = tok
    # Completion mask: tokens up to and including the first EOS.
    comp = seq[:, p:]
    is_eos = comp == EOS_ID
    first = torch.where(is_eos.any(1), is_eos.float().argmax(1), torch.full((n,), new_tokens - 1))
    mask = (torch.arange(new_tokens)[None, :] <= first[:, None]).float()
    return seq, mask


def grpo_update(model, opt, seq, mask, adv, prompt_len, temperature, clip_eps, max_grad_norm):
    logits = model(seq)[:, prompt_len - 1:-1] / temperature  # predicts the completion tokens
    logp_all = F.log_softmax(logits, dim=-1)
    logp = logp_all.gather(2, seq[:, prompt_len:, None]).squeeze(2)
    ratio = torch.exp(logp - logp.detach())  # rho = 1 (one update per batch)
    surr = torch.minimum(ratio * adv[:, None], ratio.clamp(1 - clip_eps, 1 + clip_eps) * adv[:, None])
    per_seq = (surr * mask).sum(1) / mask.sum(1).clamp(min=1)  # 'grpo' normalisation
    loss = -per_seq.mean()
    with torch.no_grad():  # the lab reports entropy from the same forward
        _ = (-(logp_all.exp() * logp_all).sum(-1) * mask).sum() / mask.sum()
    opt.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
    opt.step()
    return loss.item()  # one readback per update, as in the lab


def blas_library():
    """The BLAS shared library this process loaded (Linux), e.g. 'openblas-pthread/libblas.so.3'."""
    try:
        with open('/proc/self/maps') as f:
            libs = sorted(set(re.findall(r'/\S*?/((?:[^/\s]*/)?lib(?:open)?blas[^/\s]*)', f.read())))
        return ', '.join(libs) or 'none found'
    except OSError:
        return 'unknown'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--models', type=int, default=6)
    ap.add_argument('--prompts', type=int, default=16, help='B')
    ap.add_argument('--group', type=int, default=8, help='G')
    ap.add_argument('--prompt-len', type=int, default=7, help='prompt tokens, BOS included')
    ap.add_argument('--new-tokens', type=int, default=7, help='L')
    ap.add_argument('--vocab', type=int, default=18)
    ap.add_argument('--d-model', type=int, default=64)
    ap.add_argument('--layers', type=int, default=2)
    ap.add_argument('--window', type=int, default=6)
    ap.add_argument('--lr', type=float, default=4e-4)
    ap.add_argument('--clip-eps', type=float, default=0.2)
    ap.add_argument('--temperature', type=float, default=1.0)
    ap.add_argument('--repeats', type=int, default=5)
    ap.add_argument('--warmup', type=int, default=2)
    args = ap.parse_args()

    torch.set_num_threads(1)
    torch.manual_seed(1)
    models = [WindowMLP(args.vocab, args.d_model, args.layers, args.window) for _ in range(args.models)]
    opts = [torch.optim.Adam(m.parameters(), lr=args.lr) for m in models]
    n = args.prompts * args.group
    prompts = torch.randint(3, 13, (args.prompts, args.prompt_len))
    prompts[:, 0] = BOS_ID
    prompts = prompts.repeat_interleave(args.group, dim=0)  # [B*G, P]

    def step(incremental):
        t_roll = t_upd = 0.0
        for m, o in zip(models, opts):
            t0 = time.perf_counter()
            seq, mask = rollout(m, prompts, args.new_tokens, args.temperature, incremental)
            t1 = time.perf_counter()
            rewards = torch.randint(0, 2, (args.prompts, args.group)).float()
            adv = (rewards - rewards.mean(1, keepdim=True)) / (rewards.std(1, keepdim=True) + 1e-4)
            grpo_update(m, o, seq, mask, adv.flatten(), args.prompt_len, args.temperature, args.clip_eps, 1.0)
            t2 = time.perf_counter()
            t_roll += t1 - t0
            t_upd += t2 - t1
        return 1000 * (t_roll + t_upd), 1000 * t_roll, 1000 * t_upd

    out = {'torch': torch.__version__, 'threads': torch.get_num_threads(), 'models': args.models,
           'shape': f'mlp d{args.d_model} L{args.layers} w{args.window}',
           'B': args.prompts, 'G': args.group, 'promptLength': args.prompt_len, 'newTokens': args.new_tokens,
           'params': sum(p.numel() for p in models[0].parameters()), 'repeats': args.repeats,
           'blas': blas_library()}
    for name, incremental in (('fullRecompute', False), ('newPositionOnly', True)):
        for _ in range(args.warmup):
            step(incremental)
        runs = [step(incremental) for _ in range(args.repeats)]
        out[name] = {
            'stepMs': statistics.median(r[0] for r in runs),
            'stepMsMin': min(r[0] for r in runs),
            'stepMsMax': max(r[0] for r in runs),
            'rolloutMs': statistics.median(r[1] for r in runs),
            'updateMs': statistics.median(r[2] for r in runs),
        }
    print(json.dumps(out))


if __name__ == '__main__':
    main()
