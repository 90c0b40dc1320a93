"""A lean reverse-mode tape on NumPy: the least a Python + NumPy autograd engine pays.

The reference the core benchmarks hold minigrad against (``vs tape``): every value is a
``Var`` with four slots (value, gradient, parents, and the function that maps the output's
gradient to the parents'), recorded on a plain list; ``backward`` walks that list in reverse
(it is already a topological order: a value is recorded after its parents) and adds each
parent's gradient. Nothing else: no grad modes, no hooks, no version counters, no dtype or
broadcast checks, no PyTorch messages, no node objects a learner can inspect. It computes the
same numbers as the NumPy floor; what it adds to the floor is the bookkeeping every Python
tape needs, and what minigrad adds to it is the price of behaving like PyTorch.
"""

from __future__ import annotations

import numpy as np

__all__ = ["Var", "Tape", "mul", "add", "mul_number", "total", "linear", "relu",
           "cross_entropy", "sgd_step"]


class Var:
    __slots__ = ("value", "grad", "parents", "vjp")

    def __init__(self, value, parents=(), vjp=None):
        self.value = value
        self.grad = None
        self.parents = parents
        self.vjp = vjp


class Tape:
    """The list of values made by ops, in the order they were made."""

    __slots__ = ("records",)

    def __init__(self):
        self.records = []

    def op(self, value, parents, vjp) -> Var:
        out = Var(value, parents, vjp)
        self.records.append(out)
        return out

    def backward(self, out: Var) -> None:
        """Gradients of ``out`` (a scalar) into every leaf's ``grad``, then forget the tape."""
        out.grad = np.ones_like(out.value)
        for v in reversed(self.records):
            g = v.grad
            if g is None:
                continue
            for parent, pg in zip(v.parents, v.vjp(g)):
                parent.grad = pg if parent.grad is None else parent.grad + pg
            if v.parents:
                v.grad = None
        self.records.clear()


def mul(t: Tape, a: Var, b: Var) -> Var:
    av, bv = a.value, b.value
    return t.op(av * bv, (a, b), lambda g: (g * bv, g * av))


def add(t: Tape, a: Var, b: Var) -> Var:
    return t.op(a.value + b.value, (a, b), lambda g: (g, g))


def mul_number(t: Tape, a: Var, c: float) -> Var:
    c = a.value.dtype.type(c)
    return t.op(a.value * c, (a,), lambda g: (g * c,))


def total(t: Tape, a: Var) -> Var:
    shape, dtype = a.value.shape, a.value.dtype
    return t.op(a.value.sum(), (a,), lambda g: (np.broadcast_to(g.astype(dtype), shape),))


def linear(t: Tape, x, w: Var, b: Var) -> Var:
    """``x @ w.T + b``; ``x`` a plain array is a constant (the data): no gradient is made for
    it, as minigrad and PyTorch make none for an input that does not require grad."""
    wv = w.value
    if type(x) is not Var:
        return t.op(x @ wv.T + b.value, (w, b), lambda g: (g.T @ x, g.sum(0)))
    xv = x.value
    return t.op(xv @ wv.T + b.value, (x, w, b),
                lambda g: (g @ wv, g.T @ xv, g.sum(0)))


def relu(t: Tape, a: Var) -> Var:
    mask = a.value > 0
    return t.op(a.value * mask, (a,), lambda g: (g * mask,))


def cross_entropy(t: Tape, z: Var, labels: np.ndarray) -> Var:
    zv = z.value
    shifted = zv - zv.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    s = e.sum(axis=1, keepdims=True)
    rows = np.arange(len(labels))
    loss = (np.log(s[:, 0]) - shifted[rows, labels]).mean()

    def vjp(g):
        p = e / s
        p[rows, labels] -= 1
        return (p * (g / len(labels)),)

    return t.op(np.asarray(loss, zv.dtype), (z,), vjp)


def sgd_step(params, lr: float) -> None:
    for p in params:
        p.value -= lr * p.grad
