"""The strides of views against PyTorch, size-1 dimensions included (``minigrad/_view_strides.py``):
``unsqueeze`` and ``None`` indexing, ``view``/``reshape`` (PyTorch's ``computeStride``), and what
is laid out from them (elementwise results, indexing, copies), over inputs whose size-1
dimensions have strides NumPy would not give them (after ``t()``, ``permute``, slices,
``expand``)."""

from __future__ import annotations

import itertools

import pytest
from helpers import assert_same_for_each

import minigrad as mg

pytestmark = pytest.mark.torch

BASES = {
    "1x3.t()": "L.arange(3.).reshape(1, 3).t()",
    "2x3x1": "L.arange(6.).reshape(2, 3, 1)",
    "1x3x2.permute": "L.arange(6.).reshape(1, 3, 2).permute(2, 1, 0)",
    "2x1x3": "L.arange(6.).reshape(2, 1, 3)",
    "slice to 1 row": "L.arange(12.).reshape(3, 4)[1:2, ::2]",
    "expanded": "L.arange(3.).reshape(3, 1).expand(3, 2)",
    "0-d": "L.tensor(2.)",
    "2x3.t()": "L.arange(6.).reshape(2, 3).t()",
    "1x2x3": "L.arange(6.).reshape(2, 3).unsqueeze(0)",
    "1x1x4.transpose": "L.arange(4.).reshape(1, 1, 4).transpose(0, 2)",
    "empty 0x3.t()": "L.zeros(0, 3).t()",
}

VIEWS = [
    "x.unsqueeze(0)", "x.unsqueeze(1)", "x.unsqueeze(-1)", "x[None]", "x[:, None]",
    "x[..., None]", "x[None, ..., None]", "x[None, 0:1]", "x.view(-1)", "x.reshape(-1)",
    "x.reshape(1, -1)", "x.reshape(-1, 1)", "x.reshape(*x.shape, 1)", "x.reshape(1, *x.shape)",
    "x.view(1, *x.shape)", "x.view(*x.shape, 1)", "x.flatten()", "x.squeeze()",
    "x.unflatten(0, (1, x.shape[0]))", "x.view_as(x)", "x.expand(2, *x.shape)",
    "x.expand(1, 1, *x.shape)", "x.unsqueeze(0).squeeze(0)",
    # laid out from the view's strides
    "x.unsqueeze(1).sigmoid()", "x[:, None] * 2", "x.view(*x.shape, 1).clone()",
    "x.unsqueeze(1)[1:, None, [-1, 0]]", "x[None, [0]]", "x.unsqueeze(-1) + x.unsqueeze(-1)",
    "x.reshape(1, *x.shape).exp()",
]


def _strides(L, name, expr):
    try:
        x = eval(BASES[name], {"L": L})
        y = eval(expr, {"x": x})
    except (RuntimeError, IndexError) as e:
        return type(e).__name__
    return tuple(y.shape), y.stride(), y.is_contiguous()


@pytest.mark.parametrize("expr", VIEWS)
def test_view_strides_as_pytorch(torch, expr):
    assert_same_for_each(torch, BASES, lambda L, name: _strides(L, name, expr))


def _regrouped(L, shape, p, sl, new):
    x = eval("x" + sl, {"x": L.arange(24.).reshape(shape).permute(p)})
    try:
        y = x.view(new)
    except RuntimeError as e:
        y = str(e)[:40]
    return y if isinstance(y, str) else (y.stride(), y.is_contiguous(), y.tolist())


@pytest.mark.parametrize("shape", [(2, 3, 4), (1, 6, 4), (2, 12, 1), (4, 1, 6)])
def test_view_regroups_memory_as_pytorch(torch, shape):
    """Every view (or PyTorch's refusal) of permuted and sliced inputs into shapes that merge,
    split and insert size-1 dimensions."""
    for p in itertools.permutations(range(3)):
        for sl in ["", "[:1]", "[..., ::2]", "[:, :1]"]:
            n = mg.arange(24.).reshape(shape).permute(p)
            n = eval("n" + sl, {"n": n}).numel()
            for new in [(-1,), (1, -1), (-1, 1), (n, 1, 1), (1, n, 1)] + [
                    s for s in [(2, -1), (-1, 2), (2, 1, -1), (3, -1, 1)] if n % 6 == 0]:
                assert _regrouped(mg, shape, p, sl, new) == \
                    _regrouped(torch, shape, p, sl, new), (shape, p, sl, new)
