"""PyTorch's results depend on the kernels its CPU check picks (``ATEN_CPU_CAPABILITY``):
without AVX2 (the ``default`` build, and ARM machines) float32 ``randn`` calls the C library's
``logf``/``cosf``/``sinf`` and some multiply-adds round twice. minigrad reads the same variable,
so both libraries are run here under each capability in a fresh interpreter."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PROGRAM = """
import numpy as np, torch, minigrad
def draws(lib):
    out = []
    for seed in (0, 7):
        lib.manual_seed(seed)
        for dt in (lib.float32, lib.float64):
            for n in (1, 3, 15, 16, 17, 100, 5000):
                out += [lib.rand(n, dtype=dt), lib.randn(n, dtype=dt),
                        lib.empty(n, dtype=dt).normal_(0.5, 2.5),
                        lib.empty(n, dtype=dt).uniform_(-0.5773503, 0.5773503)]
        out.append(lib.nn.Linear(30, 20).weight.detach())
    return [t.numpy().tobytes() for t in out]
ours, theirs = draws(minigrad), draws(torch)
print(sum(a != b for a, b in zip(ours, theirs)), "of", len(ours), "differ;",
      torch.backends.cpu.get_cpu_capability())
"""


@pytest.mark.parametrize("capability", ["default", "avx2"])
def test_draws_match_under_each_cpu_capability(torch, capability):
    env = dict(os.environ, ATEN_CPU_CAPABILITY=capability)
    done = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    counts, chosen = done.stdout.strip().split(";")
    if chosen.strip().lower() != capability:  # a CPU without AVX2 cannot run the avx2 kernels
        pytest.skip(f"this CPU cannot run PyTorch's {capability} kernels")
    assert counts.startswith("0 of"), counts
