#!/usr/bin/env python3
"""The gradient oracle's PyTorch side: recompute one GRPO update that the lab exported
(cli/trl/torch-check-lib.ts: manifest.json + data.bin) and compare.

    python3 scripts/torch_gradcheck.py DIR [--tolerance 1e-5]        prints one JSON line

From the lab's weights, rollouts and advantages, each model is rebuilt as scripts/torch_reference.py
writes it (the windowed MLP with its embedding side by side, not folded into the first layer; the
transformer nanoGPT's way with q, k, v as one fused Linear) and its loss, every parameter's gradient,
the global gradient norm and the clipped gradients (torch.nn.utils.clip_grad_norm_'s rule) are
computed twice: in float32 (PyTorch's, what the lab is held to) and in float64 (the exact value the
two float32 computations both round). Each quantity is compared over every model of the cohort:
the largest absolute difference, and the largest |value| beside it.

Pass: every quantity within the absolute tolerance (1e-5), and within a relative one
(1e-4) of its tensor's largest |value|. Absolute, because entries that are exactly or nearly zero
(the key bias's gradient is 0 analytically: softmax ignores a shift shared by every key) carry
float32 noise as large as themselves, so entry-by-entry relative differences mean nothing. Relative
to the tensor's scale as well, because at initial weights some whole tensors are tiny (the
attention's q and k gradients, ~3e-5) and 1e-5 absolute would pass a 30% error there. A quantity
whose scale is below 1e-6 is held to the absolute tolerance only: there it is a cancellation whose
rounding follows the size of its terms, not of the result (the key bias's gradient, 0 analytically;
the loss at rho = 1, below).

At rho = 1 the loss's value is minus the mean advantage, about 0 whatever the model computes; the
forward is checked through each completion token's log-prob ('logp'), the backward through the
gradients ('g/...' raw, 'c/...' clipped as the update hands them to Adam).
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402

from torch_reference import Transformer, WindowMLP, grpo_loss  # noqa: E402

REL_FLOOR = 1e-6  # below it a quantity is a cancellation: absolute tolerance only (above)
DTYPES = {'float32': torch.float32, 'int32': torch.int32}


def load(folder):
    with open(os.path.join(folder, 'manifest.json')) as f:
        m = json.load(f)
    with open(os.path.join(folder, 'data.bin'), 'rb') as f:
        raw = bytearray(f.read())
    arrays = {}
    for name, a in m['arrays'].items():
        n = 1
        for s in a['shape']:
            n *= s
        t = torch.frombuffer(raw, dtype=DTYPES[a['dtype']], count=n, offset=a['offset'])
        arrays[name] = t.reshape(a['shape']).clone()
    return m, arrays


def build(m, weights, k):
    """Model k of the cohort with the lab's weights; returns (model, {lab name: (param, to_lab)})
    where to_lab maps that torch parameter's tensor to the lab's layout."""
    c = m['config']
    w = {name: t[k] for name, t in weights.items()}
    same = lambda x: x  # noqa: E731
    tr = lambda x: x.t()  # noqa: E731  torch Linear keeps [out, in]; the lab keeps [in, out]
    if c['family'] == 'mlp':
        model = WindowMLP(c['vocabSize'], c['dModel'], c['layers'], c.get('window') or 6)
        lab = {'wte': (model.wte.weight, same)}
        for i, lin in enumerate(model.hidden):
            lab[f'hidden.{i}.w'] = (lin.weight, tr)
            lab[f'hidden.{i}.b'] = (lin.bias, same)
        lab['head.w'] = (model.head.weight, tr)
        lab['head.b'] = (model.head.bias, same)
    else:
        model = Transformer(c['vocabSize'], c['dModel'], c['layers'], c.get('heads') or 1, c['maxLen'])
        d = c['dModel']
        lab = {'wte': (model.wte.weight, same), 'wpe': (model.wpe.weight, same)}
        for i, b in enumerate(model.blocks):
            p = f'blocks.{i}.'
            lab[p + 'ln1.g'] = (b.ln1.weight, same)
            lab[p + 'ln1.b'] = (b.ln1.bias, same)
            for j, z in enumerate('qkv'):  # the fused Linear(D, 3D): rows j*D..(j+1)*D are z's
                lab[p + f'attn.w{z}'] = (b.qkv.weight, lambda x, j=j: x[j * d:(j + 1) * d].t())
                lab[p + f'attn.b{z}'] = (b.qkv.bias, lambda x, j=j: x[j * d:(j + 1) * d])
            lab[p + 'attn.wo'] = (b.proj.weight, tr)
            lab[p + 'attn.bo'] = (b.proj.bias, same)
            lab[p + 'ln2.g'] = (b.ln2.weight, same)
            lab[p + 'ln2.b'] = (b.ln2.bias, same)
            lab[p + 'mlp.w1'] = (b.fc.weight, tr)
            lab[p + 'mlp.b1'] = (b.fc.bias, same)
            lab[p + 'mlp.w2'] = (b.out.weight, tr)
            lab[p + 'mlp.b2'] = (b.out.bias, same)
        lab['lnf.g'] = (model.lnf.weight, same)
        lab['lnf.b'] = (model.lnf.bias, same)
        lab['head.w'] = (model.head.weight, tr)
        lab['head.b'] = (model.head.bias, same)
    missing = set(w) ^ set(lab)
    if missing:
        raise ValueError(f'parameters that do not map: {sorted(missing)}')
    with torch.no_grad():
        for name, (param, to_lab) in lab.items():
            to_lab(param).copy_(w[name])  # to_lab gives a view: writing it writes the parameter
    return model, lab


def recompute(m, a, dtype):
    """Every model's loss, gradients (lab layout), gradient norm and clipped gradients, in dtype."""
    weights = {p['name']: a['w/' + p['name']] for p in m['params']}
    prompt_len = m['from'] + 1
    out = {'loss': [], 'logp': [], 'gradNorm': [], 'g': {}, 'c': {}}
    for k in range(m['K']):
        model, lab = build(m, weights, k)
        model = model.to(dtype)
        seq = a['tokens'][k].long()
        mask = a['mask'][k][:, m['from']:].to(dtype)
        adv = a['advantages'][k].to(dtype)
        loss, logp_all = grpo_loss(model, seq, mask, adv, prompt_len, m['temperature'], m['clipEps'],
                                   m['normalisation'], m['maxCompletionLength'])
        out['logp'].append(logp_all.gather(2, seq[:, prompt_len:, None]).squeeze(2).detach())
        model.zero_grad(set_to_none=True)
        loss.backward()
        grads = {name: to_lab(param.grad).detach().clone() for name, (param, to_lab) in lab.items()}
        norm = torch.sqrt(sum((g ** 2).sum() for g in grads.values()))
        coef = torch.clamp(m['maxGradNorm'] / (norm + 1e-6), max=1.0) if m['maxGradNorm'] > 0 else 1.0
        out['loss'].append(loss.detach())
        out['gradNorm'].append(norm)
        for name, g in grads.items():
            out['g'].setdefault(name, []).append(g)
            out['c'].setdefault(name, []).append(g * coef)
    return {
        'loss': torch.stack(out['loss']),
        'logp': torch.stack(out['logp']),
        'gradNorm': torch.stack(out['gradNorm']),
        **{f'g/{n}': torch.stack(v) for n, v in out['g'].items()},
        **{f'c/{n}': torch.stack(v) for n, v in out['c'].items()},
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('folder')
    ap.add_argument('--tolerance', type=float, default=1e-5, help='absolute')
    ap.add_argument('--rel-tolerance', type=float, default=1e-4, help="of the tensor's largest |value|")
    args = ap.parse_args()
    torch.set_num_threads(1)
    m, a = load(args.folder)
    f32 = recompute(m, a, torch.float32)
    f64 = recompute(m, a, torch.float64)
    names = ['loss', 'updateLoss', 'logp', 'gradNorm'] + [f'g/{p["name"]}' for p in m['params']] + [f'c/{p["name"]}' for p in m['params']]
    rows = []
    for name in names:
        key = 'loss' if name == 'updateLoss' else name  # the update's own loss: the same quantity
        lab = a[name].double()
        t32, t64 = f32[key].double(), f64[key]
        scale = t32.abs().max().item()
        diff = (lab - t32).abs().max().item()
        rows.append({
            'name': name,
            'scale': scale,
            'maxAbs': diff,
            'rel': diff / scale if scale >= REL_FLOOR else None,
            'maxAbs64': (lab - t64).abs().max().item(),
            'torch32vs64': (t32 - t64).abs().max().item(),
        })
    for r in rows:
        r['pass'] = r['maxAbs'] <= args.tolerance and (r['rel'] is None or r['rel'] <= args.rel_tolerance)
    worst = max(rows, key=lambda r: r['maxAbs'])
    print(json.dumps({
        'caseId': m['caseId'],
        'torch': torch.__version__,
        'tolerance': args.tolerance,
        'relTolerance': args.rel_tolerance,
        'pass': all(r['pass'] for r in rows),
        'failed': [r['name'] for r in rows if not r['pass']],
        'worst': {'name': worst['name'], 'maxAbs': worst['maxAbs']},
        'rows': rows,
    }))


if __name__ == '__main__':
    main()
