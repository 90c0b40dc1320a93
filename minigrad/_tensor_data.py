"""Python data to an array, as ``torch.tensor`` reads it: the dtype it infers, the shape it
insists on, and the values a dtype cannot hold.

- dtype: bools are ``bool``, ints ``int64``, floats the default float, a NumPy scalar or a
  one-element tensor its own dtype; a mix takes the promoted dtype (``[1, 2.5]`` is float32).
- shape: every list along a dimension has the same length (``[[1, 2], [3]]`` raises PyTorch's
  ``expected sequence of length 2 at dim 1 (got 1)``).
- values: a Python int beyond int64 raises ``Overflow when unpacking long long``; a value that
  does not fit an integer ``dtype=`` raises ``value cannot be converted to type int8 without
  overflow`` (a negative int into uint8 wraps, as in PyTorch: -3 is 253); a float too large
  for float32 becomes ``inf`` without a NumPy warning.

:func:`fill_value` checks a single number for ``full``, ``fill_``, ``masked_fill`` and
setting items, with PyTorch's C++ type names in its message (``int8_t``, ``float``).

>>> import minigrad as torch
>>> torch.tensor(-3, dtype=torch.uint8), torch.tensor([1e39])
(tensor(253, dtype=torch.uint8), tensor([inf]))
"""

from __future__ import annotations

from itertools import chain

import numpy as np

from . import _dtype
from ._dtype import _Defaults, from_numpy_dtype, promote_types
from ._types import invalid_combination

__all__ = ["to_array", "infer_dtype", "fill_value"]

_SEQ = (list, tuple)
_INT64 = (-2**63, 2**63)


def _is_tensor(x) -> bool:
    return hasattr(x, "_data") and hasattr(x, "grad_fn")


def _scalar_dtype(x):
    """The dtype PyTorch infers for one element, or raises its error for what is no number."""
    if isinstance(x, np.generic):
        return from_numpy_dtype(x.dtype)
    if isinstance(x, bool):
        return _dtype.bool
    if isinstance(x, int):
        return _dtype.int64
    if isinstance(x, float):
        return _Defaults.float
    if _is_tensor(x):
        return x.dtype
    if isinstance(x, str):
        raise TypeError("new(): invalid data type 'str'")
    raise RuntimeError(f"Could not infer dtype of {type(x).__name__}")


def _walk(obj) -> tuple:
    """(the promotion of every element's dtype, whether there are tensors among them).

    The data is read a level at a time, and each level's elements by type (C loops, not a
    Python loop per number: a list of 100,000 numbers is read in milliseconds).
    """
    found, tensors = None, False
    level = [obj]
    while level:
        kinds = set(map(type, level))
        seqs = kinds & _SEQ_TYPES
        if seqs:
            if kinds != seqs:  # numbers beside lists: a ragged list (reported later)
                for t in kinds - seqs:
                    found = _promote(found, _kind_dtype(t, level))
                tensors = tensors or any(_is_tensor(x) for x in level if type(x) not in seqs)
                level = [x for x in level if type(x) in _SEQ_TYPES]
            if 0 in map(len, level):
                found = _promote(found, _Defaults.float)  # [] counts as the default float
            level = list(chain.from_iterable(level))
            continue
        for t in kinds:
            found = _promote(found, _kind_dtype(t, level))
        if not kinds <= _NUMBER_TYPES:
            tensors = tensors or any(_is_tensor(x) for x in level)
        break
    return found or _Defaults.float, tensors


_SEQ_TYPES = {list, tuple}
_NUMBER_TYPES = {bool, int, float}


def _promote(a, b):
    return b if a is None else promote_types(a, b)


def _kind_dtype(t, level):
    """The dtype of the elements of type ``t`` in ``level`` (tensors: each their own)."""
    if t in _NUMBER_TYPES or issubclass(t, np.generic):
        return _scalar_dtype(next(x for x in level if type(x) is t))
    found = None
    for x in level:
        if type(x) is t:
            found = _promote(found, _scalar_dtype(x))
    return found


def infer_dtype(obj):
    """PyTorch's dtype for nested Python data: the promotion of every element's dtype."""
    return _walk(obj)[0]


def _sizes(data) -> list:
    """The shape read from the first element of each level, as PyTorch reads it."""
    sizes, seq = [], data
    while isinstance(seq, _SEQ):
        sizes.append(len(seq))
        if not seq:
            break
        seq = seq[0]
        if isinstance(seq, str):
            raise ValueError("too many dimensions 'str'")
    return sizes


def _check_shape(seq, sizes, dim: int, floating: bool) -> None:
    """Raise PyTorch's error for the first list that does not fit ``sizes``."""
    if dim == len(sizes):
        if isinstance(seq, _SEQ):
            name = type(seq).__name__
            raise TypeError(f"must be real number, not {name}" if floating else
                            f"'{name}' object cannot be interpreted as an integer")
        return
    if not isinstance(seq, _SEQ):
        raise TypeError("not a sequence")
    if len(seq) != sizes[dim]:
        raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} "
                         f"(got {len(seq)})")
    for s in seq:
        _check_shape(s, sizes, dim + 1, floating)


def _plain(x):
    """Nested data with every tensor replaced by its number (tensors are scalars here)."""
    if isinstance(x, _SEQ):
        return [_plain(v) for v in x]
    if _is_tensor(x):
        if x._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return x._data.reshape(()).item()
    return x


def _overflow(name: str) -> RuntimeError:
    return RuntimeError(f"value cannot be converted to type {name} without overflow")


def _check_range(wide: np.ndarray, target: np.dtype, name: str) -> None:
    """Raise if a value of ``wide`` (int64 or float64) does not fit the integer ``target``."""
    if not wide.size:
        return
    info = np.iinfo(target)
    lo, hi = wide.min(), wide.max()
    if wide.dtype.kind == "f":
        if not (np.isfinite(lo) and np.isfinite(hi)) or hi > float(info.max) or \
                lo < (0.0 if info.min == 0 else float(info.min)):
            raise _overflow(name)
    elif hi > info.max or lo < (-info.max if info.min == 0 else info.min):
        raise _overflow(name)  # an unsigned type takes -max..max: negatives wrap around


def to_array(data, dtype) -> tuple:
    """(an ndarray of ``data`` in ``dtype`` or the inferred one, that dtype)."""
    if _is_tensor(data) or isinstance(data, (np.generic, np.ndarray)):
        src = data._data if _is_tensor(data) else np.asarray(data)
        d = dtype or from_numpy_dtype(src.dtype)
        return np.array(_dtype.cast(src, d.np), copy=True), d
    sizes = _sizes(data) if isinstance(data, _SEQ) else []
    inferred, tensors = _walk(data)
    d = dtype or inferred
    if tensors:
        data = _plain(data)
    kind, target = inferred.np.kind, d.np
    wide = {"b": np.bool_, "u": np.int64, "i": np.int64}.get(kind, np.float64)
    if target.kind not in "iu":  # a big int is an error only where it stays an integer
        wide = np.bool_ if target.kind == "b" else np.float64
    if 0 in sizes:  # no elements: PyTorch reads no further than the first empty list
        return np.zeros(sizes, target), d
    try:
        src = np.array(data, dtype=wide)
    except OverflowError:
        raise ValueError("Overflow when unpacking long long") from None
    except ValueError:
        _check_shape(data, sizes, 0, kind == "f")
        raise
    if target.kind in "iu":
        _check_range(src, target, d.name)
    return np.array(_dtype.cast(src, target), copy=True), d


# PyTorch's C++ names of the element types, as its fill messages print them
_C_NAMES = {"int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "int32": "int",
            "int64": "int64_t", "float16": "c10::Half", "float32": "float", "float64": "double"}


def fill_value(value, d, fn: str = "fill_", item: bool = False, one: bool = False):
    """``value`` (a Python number) checked for a tensor of dtype ``d`` as PyTorch checks it in
    ``full``/``fill_`` (``item``: in setting an item; ``one``: in filling one element, which
    PyTorch does without its float16 overflow check), returned as a NumPy scalar of ``d``."""
    np_type = d.np
    if _is_tensor(value):
        return _dtype.cast(value._data, np_type)
    if not isinstance(value, (int, float, np.number, np.bool_)):
        if fn.startswith(("full", "new_full")):
            raise TypeError(f"{fn}(): argument 'fill_value' (position 2) must be Number, not "
                            f"{type(value).__name__}")
        raise invalid_combination(fn, (value,))
    if isinstance(value, (bool, np.bool_)) or np_type.kind == "b":
        return np.asarray(value != 0)
    name = _C_NAMES[d.name]
    if isinstance(value, (int, np.integer)):
        value = int(value)
        if not _INT64[0] <= value < (_INT64[1] if item else 2**64):
            if item:
                raise ValueError("Overflow when unpacking long long")
            raise OverflowError("can't convert negative int to unsigned" if value < 0 else
                                "int too big to convert")
        if np_type.kind in "iu":
            if value >= _INT64[1]:
                raise _overflow(name)
            _check_range(np.array([value]), np_type, name)
            return np.array(value).astype(np_type)
    value = float(value)
    if np_type.kind in "iu":
        _check_range(np.array([value]), np_type, name)
        return np.array(int(value)).astype(np_type)
    if np.isfinite(value) and abs(value) > float(np.finfo(np_type).max) and not (
            (item or one) and np_type == np.float16):  # x[i] = 70000.0 in float16: inf
        raise _overflow(name)
    return _dtype.cast(np.asarray(value), np_type)  # (float16: via float32, as PyTorch)
