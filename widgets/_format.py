"""Small helpers shared by the widget layer: telling tensors apart and printing their values.

Everything here is duck-typed, so the same code reads minigrad and real PyTorch tensors, and
everything it prints is deterministic (no addresses, no ``id()``), so notebook outputs are
stable.

>>> import numpy as np
>>> format_array(np.array([1.0, 2.5]))
'[1. , 2.5]'
>>> format_array(np.ones((10, 10)))
'shape [10, 10], norm 10'
>>> format_shape(np.ones((2, 3)).shape)
'[2, 3]'
"""

from __future__ import annotations

import numpy as np

__all__ = ["is_tensor", "to_numpy", "format_array", "format_value", "format_shape",
           "is_leaf_node", "PANEL_LIMIT", "LABEL_LIMIT"]

PANEL_LIMIT = 16  # show every value of a gradient with at most this many elements
LABEL_LIMIT = 6  # show the values of a tensor in a graph label up to this many elements

_tensor_types: dict[type, bool] = {}


def is_tensor(obj) -> bool:
    """Whether ``obj`` looks like a tensor (minigrad's or PyTorch's): it has a ``grad_fn``."""
    cls = type(obj)
    known = _tensor_types.get(cls)
    if known is None:
        known = _tensor_types[cls] = (not isinstance(obj, type) and hasattr(cls, "grad_fn")
                                      and hasattr(cls, "requires_grad")
                                      and hasattr(cls, "detach"))
    return known


def is_leaf_node(node) -> bool:
    """Whether a graph node is an ``AccumulateGrad`` (it has the leaf as ``variable``)."""
    return hasattr(node, "variable")


def to_numpy(value) -> np.ndarray | None:
    """The values of a tensor, an array or a number as a NumPy array (``None`` stays ``None``)."""
    if value is None:
        return None
    if isinstance(value, np.ndarray):
        return value
    if is_tensor(value):
        value = value.detach()
        try:
            return np.asarray(value.numpy(force=True))  # (force: a ZeroTensor .grad, of sgn)
        except (TypeError, RuntimeError):  # e.g. torch.bfloat16 has no NumPy dtype
            return np.asarray(value.tolist())
    return np.asarray(value)


def format_shape(shape) -> str:
    """A shape as a short list: ``[2, 3]``, ``[]`` for a scalar."""
    return "[" + ", ".join(str(int(s)) for s in shape) + "]"


def format_array(a: np.ndarray | None, limit: int = PANEL_LIMIT) -> str:
    """The values of a small array on one line, or its shape and norm when it is large."""
    if a is None:
        return "None"
    if a.size > limit:
        norm = float(np.linalg.norm(a.astype(np.float64).ravel()))
        return f"shape {format_shape(a.shape)}, norm {norm:.4g}"
    text = np.array2string(a, precision=4, separator=", ", max_line_width=10**6)
    return text.replace("\n", "")


def format_value(value, limit: int = PANEL_LIMIT) -> str:
    """:func:`format_array` for anything :func:`to_numpy` reads (tensors, arrays, None)."""
    return format_array(to_numpy(value), limit)


def short_repr(value, width: int = 40) -> str:
    """A deterministic one-line repr of a saved non-tensor value (no memory addresses)."""
    text = repr(value)
    if " at 0x" in text:
        text = f"<{type(value).__name__}>"
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"
