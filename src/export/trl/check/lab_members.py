#!/usr/bin/env python3
"""The lab's own members as model folders for the TRL export (npm run trl-check -- --models lab).

    python lab_members.py EXPORT_DIR OUT_DIR --vocab VOCAB.json --member A=WARMSTART.json [--member B=...]

Each member's folder (OUT_DIR/<id>) holds the lab's windowed MLP with the weights of the lab's
warm-start file for that member and seed (the file the lab's own run of the seed starts RL from),
the lab's character tokenizer and its generation settings, written by the exported
lab_models.save_lab_member. Prints one JSON line per member, as tiny_lab.py does.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("export_dir")
    p.add_argument("out_dir")
    p.add_argument("--vocab", required=True, help="JSON list: the lab's vocabulary, index = token id")
    p.add_argument("--member", action="append", required=True, help="ID=PATH of the member's lab warm-start file")
    args = p.parse_args(argv)
    sys.path.insert(0, str(Path(args.export_dir).resolve()))
    import torch

    import lab_models

    torch.set_num_threads(1)
    with open(args.vocab, encoding="utf-8") as f:
        vocab = json.load(f)
    for item in args.member:
        member, _, path = item.partition("=")
        t0 = time.perf_counter()
        info = lab_models.save_lab_member(path, vocab, Path(args.out_dir) / member)
        if info["member"] != member:
            print(f"note: the file was made for member {info['member']}, used for {member} (same key fields)", file=sys.stderr)
        print(json.dumps({**info, "member": member, "seconds": round(time.perf_counter() - t0, 2)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
