"""Values, gradients and second derivatives at special inputs, op by op against PyTorch.

Every op of :data:`op_table_pointwise.SPECIAL_OPS` runs on inputs made of 0, -0., ±inf, NaN,
1, -1 and 2.5 (several seeded mixes, plus inputs that are all equal, so max/min/median/sort see
ties): the value, the gradient of the output (``create_graph=True``), and the gradient of that
gradient's sum are compared with PyTorch's, NaN-aware, with dtypes; where PyTorch raises,
minigrad must raise the same exception type.

Open differences are listed in ``KNOWN`` (op name -> what differs); each is a bug to fix, and
an entry that no longer differs fails the test, so the list only shrinks.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from op_table import first_output
from op_table_pointwise import SPECIAL_OPS

import minigrad

SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.5], dtype=np.float32)
MIXES = 6  # seeded mixes of the special values per op

KNOWN: dict[str, str] = {}


def inputs(case) -> list[list[np.ndarray]]:
    """The input sets for ``case``: seeded mixes of SPECIALS, then all-equal inputs (ties)."""
    sets = []
    for seed in range(MIXES):
        rng = np.random.default_rng(seed)
        sets.append([rng.choice(SPECIALS, s).astype(np.float32) for s in case.shapes])
    for v in (1.0, 0.0, np.nan):
        sets.append([np.full(s, v, np.float32) for s in case.shapes])
    return sets


def _result(t):
    if t is None:
        return None
    t = t.detach()
    if getattr(t, "_is_zerotensor", lambda: False)():  # PyTorch's zeros that hold no memory
        return np.zeros(tuple(t.shape)), str(t.dtype).split(".")[-1]
    return np.asarray(t.numpy()), str(t.dtype).split(".")[-1]


def evaluate(lib, case, arrays) -> list:
    """[value, gradients, second derivatives] of ``case`` in ``lib``: each a list of
    (array, dtype) or None, or ('raises', exception type name) where that step raised.
    NumPy's RuntimeWarnings (inf - inf) are not compared here: see test_no_numpy_warnings."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return _steps(lib, case, arrays)


def _steps(lib, case, arrays) -> list:
    xs = [lib.tensor(a, requires_grad=True) for a in arrays]
    steps = []
    try:
        out = first_output(case.fn(lib, *xs))
        steps.append([_result(out)])
        grads = lib.autograd.grad(out, xs, lib.ones_like(out), create_graph=True,
                                  allow_unused=True)
        steps.append([_result(g) for g in grads])
        tracked = [g.sum() for g in grads if g is not None and g.requires_grad]
        if tracked:
            total = tracked[0]
            for t in tracked[1:]:
                total = total + t
            steps.append([_result(g) for g in lib.autograd.grad(total, xs, allow_unused=True)])
    except Exception as e:  # noqa: BLE001 - compared with what PyTorch raises
        steps.append(("raises", type(e).__name__))
    return steps


def _same(m, t) -> bool:
    if m is None or t is None:
        # PyTorch's None (unused input) and minigrad's zeros mean the same
        other = t if m is None else m
        return other is None or not np.any(other[0])
    (ma, md), (ta, td) = m, t
    return md == td and ma.shape == ta.shape and np.allclose(
        ma.astype(np.float64), ta.astype(np.float64), rtol=1e-4, atol=1e-5, equal_nan=True)


def differences(case, torch) -> list[str]:
    found = []
    for arrays in inputs(case):
        mine, theirs = evaluate(minigrad, case, arrays), evaluate(torch, case, arrays)
        what = ("value", "gradient", "second derivative")
        for i, (m, t) in enumerate(zip(mine, theirs)):
            if isinstance(t, tuple) or isinstance(m, tuple):
                if m != t:
                    found.append(f"{what[min(i, 2)]}: minigrad {m}, PyTorch {t}")
                break
            if m is None or t is None or len(m) != len(t) or not all(_same(a, b) for a, b in zip(m, t)):
                found.append(f"{what[i]} at {[a.tolist() for a in arrays]}:\n  minigrad "
                             f"{[x and x[0].tolist() for x in m]}\n  PyTorch  "
                             f"{[x and x[0].tolist() for x in t]}")
                break
        else:
            if len(mine) != len(theirs):
                found.append(f"at {[a.tolist() for a in arrays]}: minigrad {mine[-1]}, "
                             f"PyTorch {theirs[-1]}")
    return found


@pytest.mark.parametrize("case", SPECIAL_OPS, ids=repr)
def test_values_and_derivatives_at_special_inputs_match_torch(case, torch):
    found = differences(case, torch)
    if case.name in KNOWN:
        assert found, f"{case.name} now matches PyTorch: delete it from KNOWN"
    else:
        assert not found, "\n".join(found[:3])


def test_the_comparison_can_fail(torch, monkeypatch):
    """Make minigrad's abs gradient wrong at 0 and the comparison must notice."""
    from op_table import BY_NAME

    real = minigrad.abs
    monkeypatch.setattr(minigrad, "abs", lambda x: real(x) * 1)
    assert differences(BY_NAME["abs"], torch) == []  # the same function, still the same
    monkeypatch.setattr(minigrad, "abs", lambda x: (x * x).sqrt())
    assert differences(BY_NAME["abs"], torch)


@pytest.mark.filterwarnings("error::RuntimeWarning")  # (and no NumPy warning in backward)
@pytest.mark.parametrize("name", ["cumprod", "prod"])
def test_plain_backward_of_scans_and_products_at_special_values_matches_torch(torch, name):
    """Without create_graph PyTorch takes other paths at zeros (cumprod's O(n) masks, prod's
    exclusive products): the first-order gradients there, with special incoming gradients."""
    for seed in range(60):
        r = np.random.default_rng(seed)
        shape = [(5,), (3, 4), (2, 3, 4)][seed % 3]
        a, gz = (r.choice(SPECIALS, shape) for _ in range(2))
        if seed % 2:
            gz = r.standard_normal(shape).astype(np.float32)
        dim = int(r.integers(0, len(shape)))
        grads = []
        for lib in (minigrad, torch):
            x = lib.tensor(a, requires_grad=True)
            with warnings.catch_warnings():  # (prod's forward: see test_no_numpy_warnings)
                warnings.simplefilter("ignore", RuntimeWarning)
                y = getattr(x, name)(dim)
            y.backward(lib.tensor(gz.reshape(-1)[:y.numel()].reshape(tuple(y.shape))))
            grads.append(x.grad.numpy())
        assert np.allclose(*grads, equal_nan=True), (a.tolist(), dim, gz.tolist(), grads)
