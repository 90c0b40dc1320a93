"""Run the benchmarks, print one table of ratios: ``python -m bench [--quick] [--markdown F]``."""

from __future__ import annotations

import argparse
import os
import platform
import tempfile

import numpy as np

from .core import CASES, all_cases, baseline_source, run_baseline

try:
    import torch  # only for its version number in the header
except ImportError:
    torch = None


def _fmt(seconds) -> str:
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.3f} s"


def _ratio(r) -> str:
    return "-" if r is None else f"{r:.2f}x"


def table(cases, baseline=None, rev: str = "") -> str:
    """The results as Markdown; with ``baseline`` (times of minigrad at ``rev``, per case) two
    more columns: that time, and this checkout's time over it."""
    more = f" minigrad at {rev} | vs {rev} |" if baseline else ""
    lines = ["| case | minigrad | lean tape | PyTorch | NumPy floor | vs tape | vs PyTorch | "
             "vs floor | target |" + more,
             "|---|---|---|---|---|---|---|---|---|" + ("---|---|" if baseline else "")]
    for i, c in enumerate(cases):
        rt, rf = c.ratios()
        row = (f"| {c.name} | {_fmt(c.minigrad)} | {_fmt(c.tape)} | {_fmt(c.torch)} | "
               f"{_fmt(c.floor)} | {_ratio(c.tape_ratio())} | {_ratio(rt)} | {_ratio(rf)} | "
               f"{'; '.join(c.verdicts())} |")
        if baseline:
            row += f" {_fmt(baseline[i])} | {_ratio(c.minigrad / baseline[i])} |"
        lines.append(row)
    return "\n".join(lines)


def _cpu() -> str:
    """The processor's name and core count, e.g. 'AMD EPYC (2 cores), x86_64'."""
    name = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            name = next((line.split(":", 1)[1].strip() for line in f
                         if line.startswith("model name")), name)
    except OSError:
        pass
    return f"{name or 'unknown CPU'} ({os.cpu_count()} cores), {platform.machine()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--markdown", help="also write the table to this Markdown file")
    parser.add_argument("--baseline", metavar="REV",
                        help="also time minigrad as it was at this git revision (same run)")
    args = parser.parse_args()
    load = f"; load average {os.getloadavg()[0]:.2f} at the start" \
        if hasattr(os, "getloadavg") else ""
    header = (f"{_cpu()}, Python {platform.python_version()}, NumPy {np.__version__}, "
              f"PyTorch {torch.__version__ if torch else 'not installed'}{load}; medians of "
              "repeats, measured in one run")
    cases, baseline = all_cases(quick=args.quick), None
    if args.baseline:
        with tempfile.TemporaryDirectory() as folder:
            baseline_source(args.baseline, folder)
            baseline = [run_baseline(case, folder, args.quick) for case in CASES]
    text = table(cases, baseline, args.baseline or "")
    print(header)
    print(text)
    if load:
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(f"# Benchmarks\n\n{header}.\n\n{text}\n")


if __name__ == "__main__":
    main()
