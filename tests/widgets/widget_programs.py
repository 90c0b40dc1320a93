"""Random small autograd programs for the widget tests, runnable on minigrad and on PyTorch.

A program is a list of leaves (shape, values, optional starting .grad) and of ops on a
pool of tensors (leaves first, then each op's result); its loss is the sum of the last
tensor. The same program builds the same graph in both libraries, including shared nodes
(``x * x``), diamonds and inputs that need no gradient (``x * 2``).
"""

from __future__ import annotations

import numpy as np
from helpers import PROGRAM_OPS
from hypothesis import strategies as st

SHAPES = [(), (2,), (2, 2)]
OPS = ["add", "sub", "mul", "div", "neg", "scale", "sum"]


@st.composite
def programs(draw, max_leaves: int = 3, max_ops: int = 7):
    n_leaves = draw(st.integers(1, max_leaves))
    seed = draw(st.integers(0, 2**16))
    rng = np.random.default_rng(seed)
    leaves = []
    for _ in range(n_leaves):
        shape = draw(st.sampled_from(SHAPES))
        values = np.round(rng.uniform(0.5, 2.0, size=shape), 2)
        start = np.round(rng.uniform(-1, 1, size=shape), 2) if draw(st.booleans()) else None
        leaves.append((shape, values, start))
    ops = []
    for k in range(draw(st.integers(1, max_ops))):
        size = n_leaves + k
        op = draw(st.sampled_from(OPS))
        ops.append((op, draw(st.integers(0, size - 1)), draw(st.integers(0, size - 1))))
    return leaves, ops


def run_program(lib, program):
    """(leaves, loss) of ``program`` in library ``lib`` (minigrad or torch); no backward."""
    leaf_specs, ops = program
    leaves = []
    for _shape, values, start in leaf_specs:
        t = lib.tensor(np.array(values, dtype=np.float64), requires_grad=True)
        if start is not None:
            t.grad = lib.tensor(np.array(start, dtype=np.float64))
        leaves.append(t)
    pool = list(leaves)
    for op, i, j in ops:
        pool.append(PROGRAM_OPS[op](pool[i], pool[j]))
    return leaves, pool[-1].sum()


def stepper_at_a_product(first: str = "x", second: str = "w"):
    """A ``BackwardStepper`` of ``sum(first * second)`` (the leaves [1, 2] and [3, 4], named
    as given), stopped after its second step: the product's ``MulBackward0``."""
    from minigrad_widgets import BackwardStepper

    import minigrad

    a = minigrad.tensor([1., 2.], requires_grad=True)
    b = minigrad.tensor([3., 4.], requires_grad=True)
    stepper = BackwardStepper((a * b).sum(), names={first: a, second: b})
    stepper.step()
    stepper.step()
    return stepper


def grad_state(tensors) -> list:
    """(the .grad object, a copy of its values) of each tensor."""
    out = []
    for t in tensors:
        g = t.grad
        out.append((g, None if g is None else np.array(g.detach().numpy(), copy=True)))
    return out


def assert_same_state(before, after) -> None:
    """Same objects holding the same values (NaN equal to NaN)."""
    assert len(before) == len(after)
    for (g0, v0), (g1, v1) in zip(before, after):
        assert g0 is g1
        if v0 is None:
            assert v1 is None
        else:
            np.testing.assert_array_equal(v0, v1)


def grads_of(tensors) -> list:
    return [None if t.grad is None else np.array(t.grad.detach().numpy()) for t in tensors]


def assert_same_grads(a, b) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b):
        if x is None or y is None:
            assert x is None and y is None
        else:
            np.testing.assert_array_equal(x, y)
