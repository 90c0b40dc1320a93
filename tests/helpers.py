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


# ---------------------------------------------------------------- straight-line programs
def describe(value):
    """What a learner can see of a result, in a form both libraries give alike: a tensor's
    values, dtype, shape, strides, contiguity, requires_grad and grad_fn name; a node's name."""
    if isinstance(value, (tuple, list)):
        return type(value).__name__, [describe(v) for v in value]
    if hasattr(value, "next_functions"):  # a node
        return "node", value.name()
    if hasattr(value, "_version") and hasattr(value, "stride"):  # a tensor of either library
        fn = value.grad_fn
        return ("tensor", dtype_name(value.dtype), tuple(value.shape), value.stride(),
                value.is_contiguous(), value.requires_grad, fn and fn.name(),
                str(np.asarray(value.detach().numpy()).tolist()))  # (str: nan == nan)
    if hasattr(value, "is_floating_point") or type(value).__module__.startswith("torch"):
        return repr(value)
    return value


def run_program(lib, code: str):
    """Run ``code`` (statements; the result in ``r``) with ``lib`` imported as ``torch``: what
    :func:`describe` makes of ``r``, or (exception type, first line of its message)."""
    scope = {"torch": lib}
    try:
        exec(code, scope)  # noqa: S102 (the test's own programs)
        return describe(scope.get("r"))
    except Exception as e:  # noqa: BLE001 (the error is the result compared)
        return type(e).__name__, str(e).split("\n")[0]


def assert_same_program(torch, code: str):
    """``code`` gives the same visible result with minigrad as with PyTorch."""
    mine, theirs = run_program(mg, code), run_program(torch, code)
    assert mine == theirs, f"{code}\n minigrad: {mine}\n PyTorch:  {theirs}"
