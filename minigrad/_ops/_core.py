"""The shared machinery of every op: operands, result dtypes, recording a node.

Whether to record is decided in one place, :func:`make`: only when grad mode is on and some
input requires grad does the op get a node (its ``grad_fn``).
"""

from __future__ import annotations

import numpy as np

from .._dtype import _Defaults, from_numpy_dtype, result_type
from .._state import local as _mode
from .._tensor import Tensor
from ..autograd.graph import SavedTensor, _sequence, grad_accumulator, intern_nrs

__all__ = ["Tensor", "SavedTensor", "make", "make_view", "binary_operands", "value", "method",
           "wrap_scalar", "to_tensor"]

_SCALARS = (int, float, bool)


def method(*names):
    """Attach the decorated function to ``Tensor`` under ``names`` (its own name by default)."""

    def deco(fn):
        for name in names or (fn.__name__,):
            setattr(Tensor, name, fn)
        return fn

    return deco


def value(saved):
    """What a backward formula uses of a saved value: array/tensor for a SavedTensor, else as is."""
    return saved.get() if type(saved) is SavedTensor else saved


def wrap_scalar(x) -> Tensor:
    """A Python number as the 0-d tensor PyTorch makes of it (int64, float64 or bool)."""
    return Tensor._wrap(np.array(x))


def to_tensor(x) -> Tensor:
    if isinstance(x, Tensor):
        return x
    if isinstance(x, _SCALARS) or isinstance(x, np.generic):
        return Tensor._wrap(np.array(x, dtype=result_type(x).np))
    raise TypeError(f"expected Tensor as element 1 in argument 0, but got {type(x).__name__}")


def binary_operands(a, b, float_result: bool = False):
    """The arrays (or weak Python scalars) to compute with, and the result's NumPy dtype.

    NumPy's own promotion differs from PyTorch's (``int64 * 2.5`` is float64 in NumPy,
    float32 in PyTorch), so operands are cast to PyTorch's result dtype where they differ.
    """
    ta = type(a) is Tensor or isinstance(a, Tensor)
    tb = type(b) is Tensor or isinstance(b, Tensor)
    if ta and tb:
        da, db = a._data.dtype, b._data.dtype
        if da is db and (da.kind == "f" or not float_result):
            return a._data, b._data, da
        rd = result_type(a, b)
    elif ta:
        if type(b) not in (float, int, bool):
            if isinstance(b, np.ndarray):
                return binary_operands(a, Tensor._wrap(b), float_result)
            if not isinstance(b, _SCALARS + (np.generic,)):
                return NotImplemented, None, None
            b = b.item() if isinstance(b, np.generic) else b
        da = a._data.dtype
        if da.kind == "f" and type(b) is not complex:
            return a._data, b, da
        rd = result_type(a, b)
    else:
        if not isinstance(a, _SCALARS + (np.generic,)):
            return NotImplemented, None, None
        a = a.item() if isinstance(a, np.generic) else a
        db = b._data.dtype
        if db.kind == "f":
            return a, b._data, db
        rd = result_type(a, b)
    if float_result and not rd.is_floating_point:
        rd = _Defaults.float
    nd = rd.np
    xa = a._data if ta else np.asarray(a)
    xb = b._data if tb else np.asarray(b)
    return (xa if xa.dtype == nd else xa.astype(nd), xb if xb.dtype == nd else xb.astype(nd), nd)


_ZEROS = [(), (0,), (0, 0), (0, 0, 0), (0, 0, 0, 0)]  # the usual input_nrs: all first outputs


def make(data, node, *inputs, broadcast: bool = False) -> Tensor:
    """Wrap ``data`` as the op's output; if ``node`` is given, make it the output's grad_fn.

    ``inputs`` are the op's operands in order (Tensors, or None for a non-tensor operand); they
    become ``node.next_functions``. With ``broadcast=True`` (elementwise ops) the engine sums
    each input's gradient back to that input's shape and dtype: un-broadcasting lives here,
    once, not in every backward formula. (One pass over the inputs: this runs for every op.)
    """
    t = Tensor._wrap(data)
    if node is None:
        return t
    nodes = []
    later_output = False  # some input is a second (third...) output of its node
    for x in inputs:
        if x is None or not x._requires_grad:
            nodes.append(None)
            continue
        if x._base is not None:
            x._sync_view()  # a view whose memory changed in place reads from its base now
            if x._grad_fn is None and x._view_no_grad:  # made in no_grad mode: leads nowhere
                nodes.append(None)
                continue
        fn = x._grad_fn
        if fn is None:
            nodes.append(grad_accumulator(x))
        else:
            nodes.append(fn)
            if x._output_nr:
                later_output = True
        if broadcast:
            xd = x._data
            if xd.shape != t._data.shape or xd.dtype != t._data.dtype:
                if node._sum_to is None:
                    node._sum_to = [None] * len(inputs)
                node._sum_to[len(nodes) - 1] = (xd.shape, xd.dtype)
    node._next_nodes = tuple(nodes)
    if later_output:
        node._next_nrs = intern_nrs(tuple(0 if fn is None else x._output_nr
                                          for fn, x in zip(nodes, inputs)))
    else:
        node._next_nrs = _ZEROS[len(nodes)] if len(nodes) < 5 else (0,) * len(nodes)
    node._sequence_nr = next(_sequence)
    t._grad_fn = node
    t._requires_grad = True
    return t


def recording(*tensors) -> bool:
    """Whether an op on ``tensors`` must record a node."""
    if not _mode.grad_enabled:
        return False
    for t in tensors:
        if t is not None and t._requires_grad:
            return True
    return False


def make_view(data, node, base: Tensor) -> Tensor:
    """Like :func:`make` for an op whose output is a view of ``base`` (shares its version)."""
    t = make(data, node, base)
    t._vc = base._vc
    t._base = base if base._base is None else base._base
    return t


def dtype_of(npdtype):
    return from_numpy_dtype(npdtype)
