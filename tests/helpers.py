"""Helpers shared by the tests: running code on both libraries and comparing what comes out.

Differential tests run the same function with ``minigrad`` and with real PyTorch (the ``torch``
fixture of conftest.py) and compare results, errors and graphs. Op-specific helpers (the op
table, graph and saved-value comparisons) are in ``tests/ops/op_table.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg


def norm(text: str) -> str:
    """PyTorch's text as minigrad prints it: the same (minigrad prints ``torch.float64``)."""
    return text


def both(torch, fn):
    """Run ``fn(lib)`` with each library; returns (minigrad result, torch result)."""
    return fn(mg), fn(torch)


def on_both(fn):
    """A differential test in one function: ``fn(L)`` runs with minigrad and with PyTorch (the
    ``torch`` fixture) and must return equal results on both.

        @on_both
        def test_detach_makes_a_leaf(L):
            x = L.tensor([1., 2.], requires_grad=True)
            return (x * 2).detach().is_leaf
    """
    def test(torch):
        m, t = fn(mg), fn(torch)
        assert m == t, f"minigrad returned {m!r}\n PyTorch returned {t!r}"

    # pytest sees a test named as ``fn`` that takes the ``torch`` fixture
    test.__name__, test.__qualname__, test.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
    test.__module__ = fn.__module__
    return test


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
    """(exception type name, message) of what ``fn()`` raises."""
    with pytest.raises(Exception) as info:
        fn()
    return type(info.value).__name__, norm(str(info.value))


def both_raise(torch, build):
    """Run ``build(lib)`` with each library; both must raise the same type and message."""
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


# ---------------------------------------------------------------- comparing tensors
F32 = {"rtol": 1e-5, "atol": 1e-6}  # default tolerances for float32 results


def dtype_name(dtype) -> str:
    return str(dtype).replace("torch.", "").replace("minigrad.", "")


def as_array(t) -> np.ndarray:
    return np.asarray(t.detach().numpy())


def assert_close(m, t, **tol):
    """Same dtype, shape and values (nan where torch has nan)."""
    assert dtype_name(m.dtype) == dtype_name(t.dtype), (m.dtype, t.dtype)
    assert tuple(m.shape) == tuple(t.shape), (tuple(m.shape), tuple(t.shape))
    np.testing.assert_allclose(as_array(m), as_array(t), equal_nan=True, **(tol or F32))
