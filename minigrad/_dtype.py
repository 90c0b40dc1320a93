"""Data types and PyTorch's type-promotion rules.

A ``dtype`` names a NumPy dtype the way PyTorch names its own, and prints as PyTorch prints
it (``torch.float32``), so output pasted from a tutorial reads the same. Every dtype NumPy can
hold works (bool, uint8, int8, int16, int32, int64, float16, float32, float64); PyTorch's
others (bfloat16, the complex and the wide unsigned types) exist as names, and using one raises
a ``TypeError`` that says so.

>>> float32, float64.is_floating_point, int8, float16.itemsize
(torch.float32, True, torch.int8, 2)
"""

from __future__ import annotations

import numpy as np

from ._quiet import quiet, restore
from ._torch_names import TorchNamed

__all__ = ["dtype", "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
           "float64", "bfloat16", "complex64", "complex128", "uint16", "uint32", "uint64",
           "result_type", "promote_types", "get_default_dtype", "set_default_dtype",
           "can_cast"]

_py_bool = bool


class dtype(metaclass=TorchNamed):
    """A tensor element type: ``torch.float32`` and friends.

    ``np`` is the NumPy dtype that holds the values; ``_cpp`` and ``_c_type`` are the names
    PyTorch's C++ messages print (``Long``, ``long int``).
    """

    __slots__ = ("name", "np", "is_floating_point", "is_signed", "itemsize", "_rank",
                 "_legacy_name", "_cpp", "_c_type", "_is_complex")

    def __init__(self, name: str, np_type, rank: int, legacy_name: str, c_type: str):
        self.name = name
        self.np = np.dtype(np_type)
        self.is_floating_point = self.np.kind == "f"
        self.is_signed = self.np.kind in "ifc"
        self.itemsize = self.np.itemsize
        self._rank = rank
        self._legacy_name = legacy_name
        self._cpp = legacy_name[:-6]  # "LongTensor" -> "Long"
        self._c_type = c_type
        self._is_complex = self.np.kind == "c"

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return self.name

    @property
    def is_complex(self) -> _py_bool:
        return self._is_complex

    def to_real(self) -> dtype:
        return {complex64: float32, complex128: float64}.get(self, self)


class _NotInNumPy(dtype):
    """A PyTorch dtype minigrad names but cannot compute with: using it raises ``TypeError``."""

    __slots__ = ("_why",)

    def __init__(self, name, like, floating, legacy_name, c_type, why):
        like = np.dtype(like)
        self.name, self._legacy_name, self._cpp, self._c_type = \
            name, legacy_name, legacy_name[:-6], c_type
        self.is_floating_point, self._is_complex = floating, like.kind == "c"
        self.is_signed, self.itemsize, self._rank = like.kind != "u", like.itemsize, 99
        self._why = why

    @property
    def np(self):
        raise TypeError(f"minigrad does not support torch.{self.name}: {self._why}")


bool = dtype("bool", np.bool_, 0, "BoolTensor", "bool")  # noqa: A001 - PyTorch's name
uint8 = dtype("uint8", np.uint8, 1, "ByteTensor", "unsigned char")
int8 = dtype("int8", np.int8, 1, "CharTensor", "signed char")
int16 = dtype("int16", np.int16, 2, "ShortTensor", "short int")
int32 = dtype("int32", np.int32, 3, "IntTensor", "int")
int64 = dtype("int64", np.int64, 4, "LongTensor", "long int")
float16 = dtype("float16", np.float16, 5, "HalfTensor", "c10::Half")
float32 = dtype("float32", np.float32, 6, "FloatTensor", "float")
float64 = dtype("float64", np.float64, 7, "DoubleTensor", "double")
_USE = "use torch.float32 (or torch.float16 for half precision)"
bfloat16 = _NotInNumPy("bfloat16", np.float16, True, "BFloat16Tensor", "c10::BFloat16",
                       f"NumPy has no bfloat16 type; {_USE}")
complex64 = _NotInNumPy("complex64", np.complex64, False, "ComplexFloatTensor",
                        "c10::complex<float>", f"minigrad has no complex autograd; {_USE}")
complex128 = _NotInNumPy("complex128", np.complex128, False, "ComplexDoubleTensor",
                         "c10::complex<double>", f"minigrad has no complex autograd; {_USE}")
_WIDE = "PyTorch itself supports few ops on it; use torch.int64"
uint16 = _NotInNumPy("uint16", np.uint16, False, "UInt16Tensor", "unsigned short", _WIDE)
uint32 = _NotInNumPy("uint32", np.uint32, False, "UInt32Tensor", "unsigned int", _WIDE)
uint64 = _NotInNumPy("uint64", np.uint64, False, "UInt64Tensor", "unsigned long", _WIDE)

SUPPORTED = (bool, uint8, int8, int16, int32, int64, float16, float32, float64)
_BY_NUMPY = {d.np: d for d in SUPPORTED}
_NUMPY_ONLY = {np.dtype(n): d for n, d in (("uint16", uint16), ("uint32", uint32),
                                           ("uint64", uint64), ("complex64", complex64),
                                           ("complex128", complex128))}


class _Defaults:
    float = float32


def get_default_dtype() -> dtype:
    """The dtype of floating tensors made from Python floats (``float32`` unless changed)."""
    return _Defaults.float


def set_default_dtype(d: dtype) -> None:
    """Set the default floating dtype (``float32`` or ``float64``; ``float16`` too)."""
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    d.np  # noqa: B018 - bfloat16 raises its clear error here
    _Defaults.float = d


def cpu_type_name(npd) -> str:
    """How PyTorch's C++ messages name the type of a CPU tensor with NumPy dtype ``npd``:
    ``torch.FloatTensor``, ``torch.LongTensor``..., but ``CPUBoolType`` for bool."""
    if npd == np.bool_:
        return "CPUBoolType"
    return "torch." + from_numpy_dtype(npd)._legacy_name


def from_numpy_dtype(npd) -> dtype:
    """The minigrad dtype for a NumPy dtype (raises ``TypeError`` for unsupported ones)."""
    try:
        return _BY_NUMPY[npd]
    except KeyError:
        pass
    npd = np.dtype(npd)
    if npd in _BY_NUMPY:
        return _BY_NUMPY[npd]
    if npd in _NUMPY_ONLY:
        _NUMPY_ONLY[npd].np  # noqa: B018 - raises minigrad's clear error
    raise TypeError(
        f"can't convert np.ndarray of type numpy.{npd.type.__name__}. The only supported types "
        "are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, "
        "uint32, uint16, uint8, and bool.")


_PY_TYPES = {float: float64, int: int64, _py_bool: bool}


def check(d, fn: str = "tensor", arg: str = "dtype", error=None) -> dtype | None:
    """``d`` as a dtype (or None); Python's ``float``/``int``/``bool`` name float64/int64/bool
    as in PyTorch. Anything else raises ``error`` or PyTorch's ``TypeError`` naming ``fn``."""
    if d is None or type(d) is dtype:
        return d
    if isinstance(d, dtype):
        d.np  # noqa: B018 - a dtype NumPy cannot hold: its clear error
        return d
    if isinstance(d, type) and d in _PY_TYPES:
        return _PY_TYPES[d]
    raise error or TypeError(f"{fn}(): argument '{arg}' must be torch.dtype, not "
                             f"{type(d).__name__}")


def cast(data: np.ndarray, to: np.dtype) -> np.ndarray:
    """``data`` as ``to``, the way PyTorch's CPU casts: floats go to the integer types below
    int64 through int32, truncating (300.0 becomes 44 in int8, wrapping); what int32 cannot hold
    (NaN, infinities, 3e9) becomes int32's minimum first, as x86's conversion gives it (so 0 in
    int8, int16 and uint8). int64 gets its own minimum the same way. float64 goes to float16
    through float32, as PyTorch's conversion does (rounding twice). No NumPy warnings."""
    if data.dtype == to:
        return data
    token = quiet()  # (NaN, inf, huge values: no NumPy warning)
    try:
        if to == _HALF and data.dtype.kind == "f":  # (float64: two roundings, as PyTorch's)
            data = data.astype(np.float32)
        if data.dtype.kind == "f" and to.kind in "iu" and to.itemsize < 8:
            data = data.astype(np.int64)  # NaN, inf and the huge ones: int64's minimum
            data[(data < _INT32_MIN) | (data > -1 - _INT32_MIN)] = _INT32_MIN
        return data.astype(to)
    finally:
        restore(token)


_INT32_MIN = -2**31
_HALF = np.dtype(np.float16)


def promote_types(a: dtype, b: dtype) -> dtype:
    """The smallest dtype both ``a`` and ``b`` convert to (PyTorch's ``promote_types``)."""
    for i, d in enumerate((a, b), 1):
        if not isinstance(d, dtype):
            raise TypeError(f"promote_types(): argument 'type{i}' (position {i}) must be "
                            f"torch.dtype, not {type(d).__name__}")
    if a._rank == b._rank and a is not b:  # uint8 and int8: neither holds the other
        return int16
    return a if a._rank >= b._rank else b


def can_cast(from_: dtype, to: dtype) -> _py_bool:
    """Whether PyTorch's casting rules allow ``from_`` into ``to`` (no float to int, ...)."""
    return _category(from_) <= _category(to)


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
