"""NumPy's floating-point warnings switched off where minigrad computes, cheaply.

PyTorch computes ``0 * inf``, ``inf - inf``, ``1e30 * 1e30`` and ``1 / 0`` silently (NaN, inf);
NumPy warns (``RuntimeWarning: overflow encountered in multiply``). ``np.errstate(all="ignore")``
would hide the warning but costs about 1 us, more than a small multiply. NumPy 2 keeps that
state in a context variable, so minigrad sets the variable to its quiet value and resets it
(about 0.15 us) around the NumPy calls that can warn:

    token = quiet()
    try:
        data = np.multiply(a, b)
    finally:
        restore(token)

The backward engine does this once per pass (``backward()`` runs every formula quietly). The
learner's own NumPy code, outside minigrad's ops, keeps NumPy's settings.

>>> import numpy as np
>>> token = quiet()
>>> np.float32(3e38) * np.float32(10)
np.float32(inf)
>>> restore(token)
>>> quietly(np.divide, np.ones(1), 0.0)
array([inf])
"""

from __future__ import annotations

import functools

import numpy as np

__all__ = ["quiet", "restore", "quietly", "nan_of_nothing"]

try:  # NumPy 2: np.errstate is a context variable (private: NumPy may move it)
    from numpy._core._ufunc_config import _extobj_contextvar as _state
except ImportError:  # pragma: no cover - another NumPy: the public, slower way
    _state = None

if _state is not None:
    with np.errstate(all="ignore"):
        _QUIET = _state.get()
    # C callables, no Python frame: quiet() -> a token; restore(token)
    quiet = functools.partial(_state.set, _QUIET)
    restore = _state.reset
else:  # pragma: no cover
    def quiet():
        state = np.errstate(all="ignore")
        state.__enter__()
        return state

    def restore(token) -> None:
        token.__exit__(None, None, None)


def quietly(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` without NumPy's floating-point warnings."""
    token = quiet()
    try:
        return fn(*args, **kwargs)
    finally:
        restore(token)


def nan_of_nothing(shape, dtype) -> np.ndarray:
    """``0 / 0`` in ``dtype``: the NaN PyTorch's kernels give for a mean or variance over no
    elements (this CPU's division gives it; on x86 its sign bit is set, as PyTorch's)."""
    zero = np.zeros(shape, dtype)
    return quietly(np.true_divide, zero, zero)
