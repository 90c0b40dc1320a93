"""gradcheck (float64 central differences) for every op in the shared op tables, and
gradgradcheck for the smooth ones; plus a deliberately wrong custom Function that gradcheck
must reject (so the check itself is shown to bite)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from helpers import custom_functions
from op_table import OPS, first_output, sample
from op_table_tensor import TENSOR_OPS

import minigrad as mg
from minigrad.autograd import GradcheckError, gradcheck, gradgradcheck

ALL = OPS + TENSOR_OPS
DIFFERENTIABLE = [c for c in ALL if c.differentiable]

# Piecewise-linear ops: their first derivative is a step, so a second derivative check says
# nothing useful (it is zero almost everywhere) -- those get gradcheck only.
PIECEWISE = ("abs", "relu", "clamp", "clip", "max", "min", "amax", "amin", "maximum",
             "minimum", "sign", "norm", "where", "masked", "median", "sort", "topk", "cummax",
             "cummin", "hardtanh", "leaky_relu", "l1", "smooth_l1", "mse", "floor", "ceil",
             "round", "trunc", "frac", "remainder", "fmod", "dropout",
             "hardsigmoid")  # (its second derivative is not implemented, in PyTorch either)


def smooth(case) -> bool:
    return not any(word in case.name for word in PIECEWISE)


def inputs_for(case):
    rng = np.random.default_rng(zlib.crc32(case.name.encode()))  # same inputs every run
    return [mg.tensor(a, requires_grad=True) for a in sample(case, rng)]


def as_function(case):
    return lambda *xs: first_output(case.minigrad(*xs))


def tolerances(case, xs) -> dict:
    """PyTorch's defaults; an op that casts to float32 gets a float32-sized step instead."""
    if first_output(case.minigrad(*xs)).dtype == mg.float64:
        return {"eps": 1e-6, "atol": 1e-5, "rtol": 1e-3}
    return {"eps": 1e-3, "atol": 1e-3, "rtol": 1e-3}


@pytest.mark.parametrize("case", DIFFERENTIABLE, ids=repr)
def test_gradcheck_passes_for_op(case):
    xs = inputs_for(case)
    assert gradcheck(as_function(case), xs, **tolerances(case, xs))


def test_gradcheck_fails_like_pytorch_for_duplicate_writes(torch):
    # Writing twice to one place keeps only the last value, but the gradient goes to both
    # values written: gradcheck must say so, as PyTorch's does.
    def write_twice(L, x, v):
        a = x * 1
        a[[0, 0, 1]] = v
        return a

    rng = np.random.default_rng(0)
    arrays = [rng.uniform(-1, 1, (2, 3)), rng.uniform(-1, 1, (3, 3))]
    t_in = [torch.tensor(a, requires_grad=True) for a in arrays]
    m_in = [mg.tensor(a, requires_grad=True) for a in arrays]
    t_ok = torch.autograd.gradcheck(lambda *xs: write_twice(torch, *xs), t_in,
                                    raise_exception=False)
    m_ok = gradcheck(lambda *xs: write_twice(mg, *xs), m_in, raise_exception=False)
    assert m_ok is t_ok is False


@pytest.mark.parametrize("case", [c for c in DIFFERENTIABLE if smooth(c)], ids=repr)
def test_gradgradcheck_passes_for_smooth_op(case):
    xs = inputs_for(case)
    assert gradgradcheck(as_function(case), xs, **tolerances(case, xs))


@pytest.mark.parametrize("case", [c for c in ALL if not c.differentiable], ids=repr)
def test_non_differentiable_op_gives_outputs_without_grad(case):
    out = case.minigrad(*inputs_for(case))
    outs = out if isinstance(out, tuple) else (out,)
    assert not any(o.requires_grad for o in outs if isinstance(o, mg.Tensor))


def test_the_tables_cover_many_ops():
    assert len(DIFFERENTIABLE) > 100
    assert sum(smooth(c) for c in DIFFERENTIABLE) > 60


WrongSquare = custom_functions(mg)["WrongSquare"]  # x**2 with a backward that forgets the 2


class WrongBroadcastSum(mg.autograd.Function):
    """x + y (y broadcast) whose backward forgets to sum y's gradient."""

    @staticmethod
    def forward(ctx, x, y):
        return x + y

    @staticmethod
    def backward(ctx, g):
        return g, g[0]


def test_gradcheck_rejects_a_wrong_custom_function():
    x = mg.tensor(np.linspace(0.5, 1.5, 4), dtype=mg.float64, requires_grad=True)
    with pytest.raises(GradcheckError, match="Jacobian mismatch for output 0 with respect to "
                                             "input 0,\nnumerical:tensor") as err:
        gradcheck(WrongSquare.apply, (x,))
    assert "analytical:tensor" in str(err.value)
    assert gradcheck(WrongSquare.apply, (x,), raise_exception=False) is False


def test_gradcheck_rejects_an_unsummed_broadcast_gradient():
    x = mg.tensor(np.ones((3, 2)), dtype=mg.float64, requires_grad=True)
    y = mg.tensor([1., 2.], dtype=mg.float64, requires_grad=True)
    with pytest.raises(GradcheckError, match="with respect to input 1"):
        gradcheck(WrongBroadcastSum.apply, (x, y))
