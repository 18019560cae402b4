"""The PyTorch side of the lab-model parity test (src/export/trl/labModels.test.ts).

    python lab_model_probs.py EXPORT_PYTHON_DIR < case.json

case.json: {"warm_start": path, "vocab": [...], "sequences": [[ids]], "prompts": [[ids]],
"max_new_tokens": n, "plant": null | "reversed-window"}. Prints {"probs": [per sequence, per
position, V probabilities], "greedy": [per prompt, the generated ids]}: the next-token
probabilities of lab_models' MLP over the sequences, batched as TRL batches them (left-padded
with PAD, with an attention mask), and transformers' greedy generate() from each prompt. The
plant reverses the window's slots, a defect the test must catch.
"""

import json
import sys

sys.path.insert(0, sys.argv[1])

import torch  # noqa: E402

import lab_models  # noqa: E402

torch.set_num_threads(1)
case = json.load(sys.stdin)
ws = lab_models.read_warm_start(case["warm_start"])
model = lab_models.mlp_from_lab(ws["keyFields"], ws["weights"], len(case["vocab"]))
if case.get("plant") == "reversed-window":
    with torch.no_grad():
        W, D = model.config.window, model.config.d_model
        w = model.hidden[0].weight  # [out, W*D]: slot k's block is columns k*D..(k+1)*D
        model.hidden[0].weight.copy_(torch.cat([w[:, k * D : (k + 1) * D] for k in reversed(range(W))], dim=1))

seqs = case["sequences"]
T = max(len(s) for s in seqs)
pad = model.config.pad_token_id
ids = torch.tensor([[pad] * (T - len(s)) + s for s in seqs])
mask = torch.tensor([[0] * (T - len(s)) + [1] * len(s) for s in seqs])
with torch.no_grad():
    probs = torch.softmax(model(input_ids=ids, attention_mask=mask).logits, dim=-1)
out_probs = [probs[i, T - len(s) :].tolist() for i, s in enumerate(seqs)]

greedy = []
for p in case["prompts"]:
    x = torch.tensor([p])
    with torch.no_grad():
        y = model.generate(x, attention_mask=torch.ones_like(x), do_sample=False, max_new_tokens=case["max_new_tokens"],
                           eos_token_id=2, pad_token_id=pad, use_cache=False)
    greedy.append(y[0, len(p):].tolist())
print(json.dumps({"probs": out_probs, "greedy": greedy}))
