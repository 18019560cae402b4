#!/usr/bin/env python3
"""PyTorch reference for one RL step of a lab cohort (a measurement, not a test).

    python3 scripts/torch_reference.py [--models 6] [--repeats 5] [...]      prints one JSON line
    python3 scripts/torch_reference.py --family transformer --d-model 32 --layers 2 --heads 4 \
        --models 7 --frozen 1                                                 the peers-teach cohort

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

--family transformer: the causal pre-LN transformer of src/core/models/transformer.ts, written as
nanoGPT does (karpathy/nanoGPT model.py): token + learned position embedding, `layers` blocks of
x + attn(ln1(x)) and x + mlp(ln2(x)) (Linear(D, 4D), GELU(tanh), Linear(4D, D)), a final layer norm
and an untied head; q, k and v from one fused Linear(D, 3D) (the lab holds three D x D matrices: the
same arithmetic). Attention is written out (matmul, additive causal mask, softmax, matmul): Debian's
torch 1.13 has no scaled_dot_product_attention. The rollout decodes as the lab's does: one forward of
the prompt fills a KV cache (every layer's keys and values, preallocated [N, H, P+L, hd]), then each
new token computes its own position only and attends over the cache; per token it also takes the
log-softmax, the sampled token's log-prob and the entropy, as the lab's rollout does. The
recomputing rollout runs the whole fixed-length sequence per token instead. `--frozen F` adds F
models that only sample (the frozen teacher of a teacher arm: peers-teach has one), timed with the
rollouts. The update is the MLP's.

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


class Block(torch.nn.Module):
    def __init__(self, d_model, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = torch.nn.LayerNorm(d_model)
        self.qkv = torch.nn.Linear(d_model, 3 * d_model)
        self.proj = torch.nn.Linear(d_model, d_model)
        self.ln2 = torch.nn.LayerNorm(d_model)
        self.fc = torch.nn.Linear(d_model, 4 * d_model)
        self.out = torch.nn.Linear(4 * d_model, d_model)

    def forward(self, x, mask=None, cache=None, pos=0):
        """x [N, T, D] at positions pos..pos+T-1. mask: additive [T, T] or None. cache: (k, v)
        [N, H, maxLen, hd] written at pos..pos+T-1; attention then reads keys 0..pos+T-1."""
        n, t, d = x.shape
        h = self.heads
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q, k, v = (z.view(n, t, h, d // h).transpose(1, 2) for z in (q, k, v))  # [N, H, T, hd]
        if cache is not None:
            cache[0][:, :, pos:pos + t] = k
            cache[1][:, :, pos:pos + t] = v
            k, v = cache[0][:, :, :pos + t], cache[1][:, :, :pos + t]
        att = (q @ k.transpose(-2, -1)) * (d // h) ** -0.5
        if mask is not None:
            att = att + mask
        y = (att.softmax(-1) @ v).transpose(1, 2).reshape(n, t, d)
        x = x + self.proj(y)
        return x + self.out(F.gelu(self.fc(self.ln2(x)), approximate='tanh'))


class Transformer(torch.nn.Module):
    """The lab's transformer (src/core/models/transformer.ts); GPT-2 init."""

    def __init__(self, vocab, d_model, layers, heads, max_len):
        super().__init__()
        if d_model % heads:
            raise ValueError(f'd_model {d_model} is not divisible by heads {heads}')
        self.heads = heads
        self.wte = torch.nn.Embedding(vocab, d_model)
        self.wpe = torch.nn.Embedding(max_len, d_model)
        self.blocks = torch.nn.ModuleList(Block(d_model, heads) for _ in range(layers))
        self.lnf = torch.nn.LayerNorm(d_model)
        self.head = torch.nn.Linear(d_model, vocab)
        for name, p in self.named_parameters():
            if name.endswith('bias'):
                torch.nn.init.zeros_(p)
            elif p.dim() > 1:
                std = 0.02 / (2 * layers) ** 0.5 if name.endswith(('proj.weight', 'out.weight')) else 0.02
                torch.nn.init.normal_(p, std=std)
        mask = torch.full((max_len, max_len), -1e9).triu(1)
        self.register_buffer('mask', mask, persistent=False)

    def run(self, tokens, pos=0, caches=None):
        n, t = tokens.shape
        x = self.wte(tokens) + self.wpe.weight[pos:pos + t]
        mask = self.mask[:t, :t] if t > 1 else None  # a single new position sees every cached key
        for i, block in enumerate(self.blocks):
            x = block(x, mask, None if caches is None else caches[i], pos)
        return self.head(self.lnf(x))

    def forward(self, tokens):
        """tokens [N, T] -> logits [N, T, V] (position t sees tokens 0..t)."""
        return self.run(tokens)

    def new_cache(self, n, length):
        d = self.wte.embedding_dim
        shape = (n, self.heads, length, d // self.heads)
        return [(torch.empty(shape), torch.empty(shape)) for _ in self.blocks]


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


@torch.no_grad()
def rollout_transformer(model, prompts, new_tokens, temperature, incremental):
    """The lab's rollout (src/core/rollout.ts): prefill, then per token the log-softmax, a Gumbel-max
    draw, PAD after EOS, the drawn token's log-prob and the entropy; the next position is decoded
    with the KV cache (incremental) or by recomputing the whole fixed-length sequence."""
    n, p = prompts.shape
    total = p + new_tokens
    seq = torch.full((n, total), PAD_ID, dtype=torch.long)
    seq[:, :p] = prompts
    caches = model.new_cache(n, total) if incremental else None
    logits = model.run(prompts, 0, caches)[:, -1] if incremental else model(seq)[:, p - 1]
    done = torch.zeros(n, dtype=torch.bool)
    logps, entropies = [], []
    for t in range(new_tokens):
        scaled = logits / temperature
        logp = F.log_softmax(scaled, dim=-1)
        drawn = gumbel_max(scaled, 1.0)
        tok = torch.where(done, torch.full_like(drawn, PAD_ID), drawn)
        live = (~done).float()
        logps.append(logp.gather(1, drawn[:, None]).squeeze(1) * live)
        entropies.append(-(logp.exp() * logp).sum(-1) * live)
        done = done | (tok == EOS_ID)
        seq[:, p + t] = tok
        if t < new_tokens - 1:
            if incremental:
                logits = model.run(tok[:, None], p + t, caches)[:, 0]
            else:
                logits = model(seq)[:, p + t]
    comp = seq[:, p:]
    is_eos = comp == EOS_ID
    first = torch.where(is_eos.any(1), is_eos.float().argmax(1), torch.full((n,), new_tokens - 1))
    mask = (torch.arange(new_tokens)[None, :] <= first[:, None]).float()
    _ = torch.stack(logps, 1), torch.stack(entropies, 1)  # the lab reads these back with the tokens
    return seq, mask


def grpo_loss(model, seq, mask, adv, prompt_len, temperature, clip_eps, normalisation='grpo', max_len=0):
    """The lab's GRPO loss (src/core/grpo/loss.ts) at rho = 1: seq [N, T], mask [N, L] over the
    completion tokens, adv [N]. Returns (loss, log-softmax of the completion positions)."""
    logits = model(seq)[:, prompt_len - 1:-1] / temperature  # predicts the completion tokens
    logp_all = F.log_softmax(logits, dim=-1)
    logp = logp_all.gather(2, seq[:, prompt_len:, None]).squeeze(2)
    ratio = torch.exp(logp - logp.detach())  # rho = 1 (one update per batch)
    surr = torch.minimum(ratio * adv[:, None], ratio.clamp(1 - clip_eps, 1 + clip_eps) * adv[:, None])
    masked = surr * mask
    if normalisation == 'grpo':  # mean over each completion's tokens, then over completions
        loss = -(masked.sum(1) / mask.sum(1).clamp(min=1)).mean()
    elif normalisation == 'bnpo':
        loss = -masked.sum() / mask.sum().clamp(min=1)
    elif normalisation == 'dr_grpo':
        loss = -masked.sum() / (seq.shape[0] * max_len)
    else:
        raise ValueError(f'unknown normalisation {normalisation}')
    return loss, logp_all


def grpo_update(model, opt, seq, mask, adv, prompt_len, temperature, clip_eps, max_grad_norm):
    loss, logp_all = grpo_loss(model, seq, mask, adv, prompt_len, temperature, clip_eps)
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
    ap.add_argument('--family', choices=('mlp', 'transformer'), default='mlp')
    ap.add_argument('--models', type=int, default=6, help='models trained per step')
    ap.add_argument('--frozen', type=int, default=0, help='models that only sample (frozen teachers)')
    ap.add_argument('--prompts', type=int, default=16, help='B')
    ap.add_argument('--group', type=int, default=8, help='G')
    ap.add_argument('--prompt-len', type=int, default=7, help='prompt tokens, BOS included')
    ap.add_argument('--new-tokens', type=int, default=7, help='L')
    ap.add_argument('--vocab', type=int, default=18)
    ap.add_argument('--d-model', type=int, default=64)
    ap.add_argument('--layers', type=int, default=2)
    ap.add_argument('--window', type=int, default=6, help='mlp only')
    ap.add_argument('--heads', type=int, default=4, help='transformer only')
    ap.add_argument('--max-len', type=int, default=0, help='transformer positions (default prompt-len + new-tokens)')
    ap.add_argument('--lr', type=float, default=4e-4)
    ap.add_argument('--clip-eps', type=float, default=0.2)
    ap.add_argument('--temperature', type=float, default=1.0)
    ap.add_argument('--repeats', type=int, default=5)
    ap.add_argument('--warmup', type=int, default=2)
    args = ap.parse_args()

    torch.set_num_threads(1)
    torch.manual_seed(1)
    transformer = args.family == 'transformer'
    max_len = max(args.max_len, args.prompt_len + args.new_tokens)

    def make():
        if transformer:
            return Transformer(args.vocab, args.d_model, args.layers, args.heads, max_len)
        return WindowMLP(args.vocab, args.d_model, args.layers, args.window)

    models = [make() for _ in range(args.models)]
    frozen = [make().requires_grad_(False) for _ in range(args.frozen)]
    opts = [torch.optim.Adam(m.parameters(), lr=args.lr) for m in models]
    sample = rollout_transformer if transformer else rollout
    n = args.prompts * args.group
    prompts = torch.randint(3, 13, (args.prompts, args.prompt_len))
    prompts[:, 0] = BOS_ID
    prompts = prompts.repeat_interleave(args.group, dim=0)  # [B*G, P]

    def step(incremental):
        t_roll = t_upd = 0.0
        for m, o in zip(models, opts):
            t0 = time.perf_counter()
            seq, mask = sample(m, prompts, args.new_tokens, args.temperature, incremental)
            t1 = time.perf_counter()
            rewards = torch.randint(0, 2, (args.prompts, args.group)).float()
            adv = (rewards - rewards.mean(1, keepdim=True)) / (rewards.std(1, keepdim=True) + 1e-4)
            grpo_update(m, o, seq, mask, adv.flatten(), args.prompt_len, args.temperature, args.clip_eps, 1.0)
            t2 = time.perf_counter()
            t_roll += t1 - t0
            t_upd += t2 - t1
        for m in frozen:  # a frozen teacher samples and is never updated
            t0 = time.perf_counter()
            sample(m, prompts, args.new_tokens, args.temperature, incremental)
            t_roll += time.perf_counter() - t0
        return 1000 * (t_roll + t_upd), 1000 * t_roll, 1000 * t_upd

    shape = (f'transformer d{args.d_model} L{args.layers} h{args.heads}' if transformer
             else f'mlp d{args.d_model} L{args.layers} w{args.window}')
    out = {'torch': torch.__version__, 'threads': torch.get_num_threads(), 'models': args.models,
           'family': args.family, 'frozen': args.frozen, 'decode': 'kv-cache' if transformer else 'window',
           'shape': shape,
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
