"""Helpers shared by the nn differential tests (test_nn_functional.py, test_nn_losses.py)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg


def norm(text: str) -> str:
    """PyTorch's text as minigrad prints it: the same (minigrad prints ``torch.float64``)."""
    return text


def tree(fn):
    """A grad_fn graph as nested (node class name, input_nr, children) tuples."""
    if fn is None:
        return None
    return (type(fn).__name__, tuple((tree(f), nr) for f, nr in fn.next_functions))


def find(fn, name):
    """The first node called ``name`` on the first-input path down from ``fn``."""
    while type(fn).__name__ != name:
        fn = fn.next_functions[0][0]
    return fn


def raised(fn):
    with pytest.raises(Exception) as info:
        fn()
    return type(info.value).__name__, norm(str(info.value))


def both_raise(torch, build):
    assert raised(lambda: build(mg)) == raised(lambda: build(torch))


def pair(torch, array, requires_grad=True):
    """The same values as a minigrad tensor and a torch tensor."""
    array = np.asarray(array)
    return (mg.tensor(array, requires_grad=requires_grad),
            torch.tensor(array, requires_grad=requires_grad))


def close(m, t, tol=1e-5):
    if m is None or t is None:
        return m is None and t is None
    return m.dtype.name == str(t.dtype).split(".")[1] and \
        np.allclose(m.detach().numpy(), t.detach().numpy(), rtol=tol, atol=tol)


def ints(lib, *shape):
    return lib.zeros(shape, dtype=lib.int64)


def rng(seed=0):
    return np.random.default_rng(seed)


def f32(*shape, seed=0):
    return rng(seed).standard_normal(shape).astype(np.float32)
