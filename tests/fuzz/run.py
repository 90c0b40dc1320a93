"""The long fuzz run (``make fuzz``): many programs, a summary of counts and every mismatch.

    python tests/fuzz/run.py --programs 500 [--start 0] [--length 25]

Exits 1 if any program's results differ between minigrad and PyTorch.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import fuzz_programs  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--programs", type=int, default=500)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--length", type=int, default=25)
    args = ap.parse_args()
    import torch

    import minigrad

    t0 = time.time()
    totals = collections.Counter()
    mismatches = []
    for seed in range(args.start, args.start + args.programs):
        out = fuzz_programs.run_program(seed, minigrad, torch, args.length)
        totals["programs"] += 1
        totals["statements"] += out.statements
        totals["exceptions compared"] += out.errors_compared
        mismatches += out.mismatches
    for seed, code, problem in mismatches:
        print(f"seed {seed}: {code}\n    {problem}\n")
    print(f"{totals['programs']} programs, {totals['statements']} statements, "
          f"{totals['exceptions compared']} exceptions compared, {len(mismatches)} programs "
          f"with a mismatch, {time.time() - t0:.0f} s")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
