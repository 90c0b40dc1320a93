"""The long fuzz run (``make fuzz``): many programs, the counts, and every difference class
with a shrunk reproducer.

    python tests/fuzz/run.py --programs 2000 [--start 0] [--length 30] [--report out.md]
    python tests/fuzz/run.py --seed 17 --show      # replay one program, print it

A class is (operation, aspect, conditions): the first program showing it is shrunk to a short
reproducer. Exits 1 if any difference is not in ``known.KNOWN``.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import fuzz_programs as P  # noqa: E402
import known  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--programs", type=int, default=500)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--length", type=int, default=30)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--probes", type=float, default=0.08, help="share of bad-input probes")
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--report", help="write the difference classes (Markdown) to this file")
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument("--classes", action="store_true", help="one line per class, no reproducers")
    ap.add_argument("--propose", action="store_true", help="print KNOWN entries for what is new")
    ap.add_argument("--unused", action="store_true",
                    help="print the KNOWN entries nothing matched (fixed: delete them)")
    args = ap.parse_args()
    import torch

    import minigrad

    if args.seed is not None:
        out = P.run_program(args.seed, minigrad, torch, args.length, args.probes)
        if args.show:
            print(P.reproducer(out.lines, out.data))
        for m in out.mismatches:
            print(f"[{m.index}] {m.op} {m.aspect} {sorted(m.feats)}: {m.code}\n    {m.detail}")
        return 0
    t0 = time.time()
    totals = collections.Counter()
    classes: dict = {}
    for seed in range(args.start, args.start + args.programs):
        out = P.run_program(seed, minigrad, torch, args.length, args.probes)
        totals.update(programs=1, statements=out.statements, probes=out.probes,
                      exceptions=out.errors_compared, differences=len(out.mismatches))
        for m in out.mismatches:
            key = (m.op, m.aspect, m.sig, known.match(m) or ("NEW" if not m.after else "after"))
            if key not in classes:
                classes[key] = {"first": m, "count": 0, "out": out, "after": 0, "feats": m.feats}
            classes[key]["feats"] &= m.feats
            classes[key]["count"] += 1
            classes[key]["after"] += m.after
    summary = (f"{totals['programs']} programs, {totals['statements']} statements "
               f"({totals['probes']} bad-input probes), {totals['exceptions']} exceptions "
               f"compared, {totals['differences']} differences in {len(classes)} classes "
               f"({sum(1 for k in classes if k[3] == 'NEW')} not in KNOWN), "
               f"{time.time() - t0:.0f} s")
    summary += "\n" + by_aspect(classes)
    if args.unused or args.propose:
        used = {k[3] for k in classes}
        text = "\n".join([propose(classes)] * args.propose + [
            f"unused {area}.txt: {op}\t{cond or '-'}\t{aspect}" for (op, cond, aspect), (area, _)
            in known.KNOWN.items() if f"{op} | {cond} | {aspect}" not in used] * args.unused)
    elif args.classes:
        text = "\n".join(f"{c['count']:4d} {k[0]} / {k[1]} / {k[3]}: {c['first'].code}  ->  "
                         f"{c['first'].detail[:150]}  [{'+'.join(sorted(c['first'].feats))}]"
                         for k, c in sorted(classes.items(), key=lambda kv: kv[0]))
    else:
        text = _report(classes, minigrad, torch, not args.no_shrink)
    print(text + "\n" + summary)
    if args.report:
        Path(args.report).parent.mkdir(parents=True, exist_ok=True)
        Path(args.report).write_text(f"# Fuzz run\n\n{summary}\n\n{text}\n")
    return 1 if any(k[3] == "NEW" for k in classes) else 0


SILENT = ("value", "shape", "requires_grad", "dtype", "grad", "is_leaf", "grad_fn", "alias",
          "contiguous", "kind", "type")


def by_aspect(classes: dict) -> str:
    """Classes (not counting those only after an earlier difference) by aspect: the silent
    ones (a different value, shape, requires_grad, dtype, ...; or no error where PyTorch
    raises one) apart from different errors and warnings."""
    counts = collections.Counter()
    for (_, aspect, sig, entry) in classes:
        if entry == "after":
            continue
        if aspect == "exception" and sig.startswith("None/"):
            aspect = "exception (minigrad raised none)"
        counts[aspect] += 1
    silent = sum(n for a, n in counts.items() if a in SILENT or a.startswith("exception ("))
    return (f"classes by aspect: {silent} silent ("
            + ", ".join(f"{a} {n}" for a, n in sorted(counts.items()) if a not in
                        ("exception", "warnings", "undefined")) + f"), {counts['exception']} "
            f"different errors, {counts['warnings']} different warnings, "
            f"{counts['undefined']} where PyTorch read undefined memory")


def propose(classes: dict) -> str:
    """KNOWN entries for the new differences: per (op, aspect), the conditions all share."""
    groups: dict = {}
    for (op, aspect, _, entry), c in classes.items():
        if entry == "NEW":
            kinds = frozenset(f for f in c["first"].feats if f[:3] in ("mg:", "pt:"))
            g = groups.setdefault((op, aspect, kinds), [c["feats"], c["first"]])
            g[0] = g[0] & c["feats"]
    lines = []
    for (op, aspect, _), (feats, m) in sorted(groups.items(), key=str):
        cond = "+".join(sorted(feats - {"no_grad", "enable_grad", "inference_mode",
                                        "set_grad_enabled"}))
        lines.append(f"{known.area(m)}.txt: {op}\t{cond or '-'}\t{aspect}\t{m.sig}")
    return "\n".join(lines)


def _report(classes: dict, minigrad, torch, shrink: bool) -> str:
    """The difference classes by owning area, most frequent first, each with a reproducer
    (shrunk: statements dropped while the last one still differs the same way)."""
    areas: dict = {}
    for (op, aspect, sig, entry), c in classes.items():
        if entry == "after":
            continue
        m = c["first"]
        area = known.KNOWN[_key(entry)][0] if entry != "NEW" else known.area(m)
        areas.setdefault(area, []).append((op, aspect, sig, entry, c))
    parts = ["Reproducers: `import numpy as np, torch; inf, nan = float('inf'), float('nan')`, "
             "then the lines (run them with `import minigrad as torch` to see the other side).\n",
             "# Summary: classes by area (count of occurrences)\n"]
    for area in sorted(areas):
        parts.append(f"- **{area}**: " + "; ".join(
            f"{op} / {aspect}: {sig} ({c['count']})" for op, aspect, sig, _, c in
            sorted(areas[area], key=lambda t: -t[4]["count"])) + "\n")
    for area in sorted(areas):
        parts.append(f"# Area: {area}\n")
        for op, aspect, sig, entry, c in sorted(areas[area], key=lambda t: -t[4]["count"]):
            m, out = c["first"], c["out"]
            lines = out.lines[:m.index + 1]
            if shrink:
                lines = P.shrink(lines, out.data, minigrad, torch, aspect)
            parts.append(
                f"## {op} / {aspect}: {sig}\n{c['count']} times ({c['after']} after an earlier "
                f"difference); KNOWN: {entry}; first: seed {m.seed}, conditions "
                f"{'+'.join(sorted(m.feats)) or '-'}\n\n    {m.detail}\n\n```python\n"
                f"{P.reproducer(lines, out.data)}\n```\n")
    return "\n".join(parts)


def _key(entry: str) -> tuple:
    op, cond, aspect = entry.split(" | ")
    return (op, cond, aspect)


if __name__ == "__main__":
    sys.exit(main())
