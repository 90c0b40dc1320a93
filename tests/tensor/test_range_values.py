"""arange, linspace and logspace give PyTorch's values bit for bit (its CPU kernels' order of
rounding: minigrad/_range_values.py), over seeded random ranges in every dtype, and the tutorial case
that made a learner's ReLU gradient differ: torch.arange(-8.0, 8.0, 0.1)."""

import numpy as np
import pytest
from helpers import assert_same_outcome

import minigrad

pytestmark = pytest.mark.torch

DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8"]


def _ranges(seed, count):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        start = float(rng.uniform(-100, 100))
        step = float(rng.choice([-1, 1]) * rng.uniform(1e-4, 3))
        out.append((start, start + step * float(rng.uniform(1, 3000)), step))
    return out


ARANGES = [(-8.0, 8.0, 0.1), (-1, 1, 0.03), (0.5, 100.3, 0.7), (0, 10, 1.5), (0.5, 10, 2),
           (-3, 4, 2.5), (10, 0, -0.3), (0, 5, 0.5)] + _ranges(0, 30)
LINSPACES = [(-8.0, 8.0, 161), (0, 1, 11), (3, 3, 5), (0, 10, 1), (0, 10, 0), (1, -1, 7),
             (-5, 5, 1000), (-93.9, 41.4, 2320)] + [(a, b, int(abs(b - a)) % 2999 + 2)
                                                     for a, b, _ in _ranges(1, 30)]


def _same(torch, make):
    def run(lib):
        try:
            return make(lib).numpy()
        except Exception as e:  # noqa: BLE001 - the error is the outcome compared
            return type(e).__name__, str(e)
    mine, theirs = run(minigrad), run(torch)
    if isinstance(mine, tuple) or isinstance(theirs, tuple):
        assert repr(mine) == repr(theirs)
    else:
        assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
        bad = np.nonzero([a.tobytes() != b.tobytes() for a, b in zip(mine, theirs)])[0]
        assert not bad.size, f"{bad.size} values differ, first at {bad[0]}: " \
                             f"{mine[bad[0]]!r} vs PyTorch {theirs[bad[0]]!r}"


@pytest.mark.parametrize("dtype", DTYPES)
def test_arange_gives_pytorchs_values_bit_for_bit(torch, dtype):
    for start, end, step in ARANGES:
        if dtype in ("uint8",) and min(start, end) < 0:
            continue
        if dtype in ("int8", "int16") and max(abs(start), abs(end)) > 127:
            continue
        _same(torch, lambda lib, a=(start, end, step): lib.arange(*a, dtype=getattr(lib, dtype)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_linspace_gives_pytorchs_values_bit_for_bit(torch, dtype):
    for start, end, steps in LINSPACES:
        if dtype == "uint8" and min(start, end) < 0:
            continue
        if dtype == "int8" and max(abs(start), abs(end)) > 127:
            continue
        _same(torch, lambda lib, a=(start, end, steps): lib.linspace(*a, dtype=getattr(lib, dtype)))


def _logspaces(seed, count):
    rng = np.random.default_rng(seed)
    bases = [10.0, 2, 2.5, 0.5, 1.7, -2.0, 0.0, 10.5, np.e]
    return [(*(round(float(x), int(rng.integers(0, 4))) for x in rng.uniform(-12, 12, 2)),
             int(rng.integers(0, 60)), bases[i % len(bases)]) for i in range(count)]


@pytest.mark.parametrize("dtype", DTYPES)
def test_logspace_gives_pytorchs_values_bit_for_bit(torch, dtype):
    """(Integer dtypes too: their overflow becomes the dtype's smallest value, or for an
    unsigned start below 0 PyTorch's error; a negative base to a fraction, x86's NaN.)"""
    for start, end, steps, base in [(0, 2, 5, 10.0), (-10, 10, 7, 10.0), (0.1, 2.3, 7, 10.0),
                                    (0, 10, 10, 10.5), (-3.3, 3.7, 101, 10.0)] + \
            _logspaces(2, 80):
        _same(torch, lambda lib, a=(start, end, steps), b=base: lib.logspace(
            *a, base=b, dtype=getattr(lib, dtype)))


@pytest.mark.parametrize("code", [
    "lib.logspace(0, 2, 5)", "lib.logspace(0, 1, -1)",
    "lib.logspace(0, 3, 4, dtype=lib.bool)", "lib.logspace(25, 2.5, 1, dtype=lib.int32)",
    "lib.logspace(0, 10, 3, requires_grad=True)",
    "lib.logspace(-1.5, 2, 3, dtype=lib.uint8)", "lib.logspace(-1, 2, 3, dtype=lib.uint8)",
    "lib.linspace(-1.5, 2, 3, dtype=lib.uint8)", "lib.linspace(float('nan'), 2, 3, dtype=lib.int32)",
    "lib.arange(-8.0, 8.0, 0.1)", "lib.arange(-8.0, 8.0, 0.1)[80].item()",
    "lib.arange(0, 10, 1.5, dtype=lib.int64)", "lib.arange(0, 5, 0.5, dtype=lib.int64)",
    "lib.arange(0, 5, 0.5, dtype=lib.int32)", "lib.linspace(0, 1, 5, dtype=lib.uint8)",
    "lib.linspace(0, 1, 5, dtype=lib.bool)", "lib.linspace(-8.0, 8.0, 161, dtype=lib.int16)",
    "lib.linspace(0, 300, 5, dtype=lib.uint8)", "lib.linspace(-1, 3, 5, dtype=lib.uint8)",
    "lib.linspace(0.5, 255.9, 3, dtype=lib.uint8)", "lib.linspace(0, 1e40, 5)",
    "lib.linspace(0, 1e10, 5, dtype=lib.int32)", "lib.linspace(0, 70000, 5, dtype=lib.float16)",
])
def test_range_expression_matches_pytorch(torch, code):
    assert_same_outcome(torch, code)


def test_relu_gradient_at_the_tutorials_arange_point_matches_pytorch(torch):
    def grad(lib):
        x = lib.arange(-8.0, 8.0, 0.1, requires_grad=True)
        lib.relu(x).sum().backward()
        return x.grad.numpy()
    assert np.array_equal(grad(minigrad), grad(torch))
