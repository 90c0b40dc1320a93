"""Small helpers for judges: read an answer the way a learner may have written it.

An answer may be a Python number or list, a NumPy array, a minigrad tensor or a real
PyTorch tensor (the lessons also run on PyTorch), so nothing here imports either library.

>>> close([1.0, 2.0], [1.0, 2.00001])
True
>>> close(3, [3.0])
False
"""

from __future__ import annotations

import numpy as np

__all__ = ["array", "number", "close", "is_tensor", "node_names"]


def is_tensor(answer) -> bool:
    """A minigrad or PyTorch tensor."""
    return hasattr(answer, "grad_fn") and hasattr(answer, "requires_grad")


def array(answer) -> np.ndarray:
    """The answer's values as a float NumPy array (tensors are read through ``tolist()``)."""
    if answer is None:
        raise TypeError("no answer")
    if is_tensor(answer):
        answer = answer.detach().tolist()
    return np.asarray(answer, dtype=float)


def number(answer) -> float:
    """The answer as one float (a 0-d or one-element tensor, a number)."""
    values = array(answer)
    if values.size != 1:
        raise ValueError("expected one number")
    return float(values.reshape(()))


def close(answer, expected, *, tol: float = 1e-4) -> bool:
    """Same shape, and every value within ``tol`` (relative and absolute) of ``expected``."""
    got, want = array(answer), np.asarray(expected, dtype=float)
    return got.shape == want.shape and bool(np.allclose(got, want, rtol=tol, atol=tol))


def node_names(answer) -> list[str]:
    """A list of node names, from strings or from nodes (``grad_fn`` objects)."""
    return [a if isinstance(a, str) else a.name() for a in answer]
