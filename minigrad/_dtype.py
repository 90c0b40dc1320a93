"""Data types and PyTorch's type-promotion rules.

A ``dtype`` names a NumPy dtype the way PyTorch names its own, and prints as PyTorch prints
it (``torch.float32``), so output pasted from a tutorial reads the same.

>>> float32, float64.is_floating_point, int64
(torch.float32, True, torch.int64)
"""

from __future__ import annotations

import numpy as np

__all__ = ["dtype", "bool", "uint8", "int32", "int64", "float32", "float64", "result_type",
           "promote_types", "get_default_dtype", "set_default_dtype"]

_py_bool = bool


class dtype:
    """A tensor element type: ``torch.float32`` and friends."""

    __slots__ = ("name", "np", "is_floating_point", "is_signed", "itemsize", "_rank",
                 "_legacy_name")

    def __init__(self, name: str, np_type, rank: int, legacy_name: str):
        self.name = name
        self.np = np.dtype(np_type)
        self.is_floating_point = self.np.kind == "f"
        self.is_signed = self.np.kind in "if"
        self.itemsize = self.np.itemsize
        self._rank = rank
        self._legacy_name = legacy_name

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return self.name

    @property
    def is_complex(self) -> _py_bool:
        return False

    def to_real(self) -> dtype:
        return self


bool = dtype("bool", np.bool_, 0, "BoolTensor")  # noqa: A001 - PyTorch's name
uint8 = dtype("uint8", np.uint8, 1, "ByteTensor")
int32 = dtype("int32", np.int32, 2, "IntTensor")
int64 = dtype("int64", np.int64, 3, "LongTensor")
float32 = dtype("float32", np.float32, 5, "FloatTensor")
float64 = dtype("float64", np.float64, 6, "DoubleTensor")

_BY_NUMPY = {d.np: d for d in (bool, uint8, int32, int64, float32, float64)}
_BY_NUMPY[np.dtype(np.int8)] = int64
_BY_NUMPY[np.dtype(np.int16)] = int64
_BY_NUMPY[np.dtype(np.uint16)] = int64
_BY_NUMPY[np.dtype(np.uint32)] = int64
_BY_NUMPY[np.dtype(np.float16)] = float32


class _Defaults:
    float = float32


def get_default_dtype() -> dtype:
    """The dtype of floating tensors made from Python floats (``float32`` unless changed)."""
    return _Defaults.float


def set_default_dtype(d: dtype) -> None:
    """Set the default floating dtype (``float32`` or ``float64``)."""
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _Defaults.float = d


def from_numpy_dtype(npd) -> dtype:
    """The minigrad dtype for a NumPy dtype (raises ``TypeError`` for unsupported ones)."""
    try:
        return _BY_NUMPY[np.dtype(npd)]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(npd).name}. The only supported "
            "types are: float64, float32, int64, int32, uint8, and bool."
        ) from None


def promote_types(a: dtype, b: dtype) -> dtype:
    """The smallest dtype both ``a`` and ``b`` convert to (PyTorch's ``promote_types``)."""
    return a if a._rank >= b._rank else b


def _category(d: dtype) -> int:
    return 2 if d.is_floating_point else (0 if d is bool else 1)


def _combine(higher, lower):
    """PyTorch's combine_categories: a higher-priority class wins unless it is of a lower kind."""
    if higher is None:
        return lower
    if lower is None or higher.is_floating_point:
        return higher
    if higher is bool or lower.is_floating_point:
        return promote_types(higher, lower)
    return higher


def result_type(*operands) -> dtype:
    """The dtype of an elementwise op on ``operands`` (tensors and Python numbers).

    Dimensioned tensors outrank zero-dimensional ones, which outrank Python numbers, unless a
    lower class holds a higher kind (bool < integer < floating point).

    >>> import minigrad
    >>> result_type(minigrad.tensor([1, 2]), 1.5), result_type(minigrad.tensor([1.]), 2)
    (torch.float32, torch.float32)
    """
    dim = zero = wrapped = None
    for op in operands:
        d = getattr(op, "dtype", None)
        if d is None:
            if isinstance(op, _py_bool):
                d = bool
            elif isinstance(op, (int, np.integer)):
                d = int64
            else:
                d = _Defaults.float
            wrapped = d if wrapped is None else promote_types(wrapped, d)
        elif op._data.ndim == 0:
            zero = d if zero is None else promote_types(zero, d)
        else:
            dim = d if dim is None else promote_types(dim, d)
    return _combine(dim, _combine(zero, wrapped))
