"""Views: tensors that share their base's memory, and how their history follows the base.

A view (``x[1:]``, ``x.t()``, ``x.view(6)``, ``x.expand(...)``...) is made by :func:`view_of`
from a NumPy view of the base's array: it shares the base's memory and version counter, and
keeps ``_base``. When the base (or another view of it) is changed in place, the view's
``grad_fn`` is brought up to date the next time it is needed (:func:`_sync_view`): it then
reads its values from the base's new history through an ``AsStridedBackward0`` node, as in
PyTorch. That is also how a view made before its base required grad starts requiring it.

>>> import minigrad as torch
>>> a = torch.ones(3)
>>> v = a[1:]
>>> w = torch.tensor(2., requires_grad=True)
>>> a.mul_(w)
tensor([2., 2., 2.], grad_fn=<MulBackward0>)
>>> v.grad_fn.name()
'AsStridedBackward0'
>>> v.sum().backward(); w.grad
tensor(2.)
"""

from __future__ import annotations

import numpy as np

from .._state import local as _mode
from .._tensor import Tensor
from .._types import row_major_strides
from ..autograd._rule import _r
from ..autograd.grad_mode import is_grad_enabled
from ..autograd.graph import Node, record, should_record
from ..autograd.saved import NO_VERSION_MESSAGE, _op_name
from . import _formula as F
from ._core import method

__all__ = ["view_of", "views_of", "strided", "overlapping", "as_strided", "AsStridedBackward0",
           "Placement", "put_flat", "MULTI", "made_without_grad", "mark_multi",
           "shared_memory"]


# ---------------------------------------------------------------- making views
def view_of(src: Tensor, data: np.ndarray, node: Node | None = None) -> Tensor:
    """``data`` (a NumPy view of ``src._data``) as a view of ``src``: shared memory and version.

    ``node`` (given when the view is recorded) becomes its ``grad_fn``.
    """
    t = Tensor._wrap(data)  # (one view, written out: ``x.t()`` in nn.Linear, at every step)
    t._data = data  # (an empty view keeps the strides it has from its base, as in PyTorch)
    t._vc, t._base = src._vc, src if src._base is None else src._base
    _attach(src, (t,), t, node)
    return t


def views_of(src: Tensor, datas, node: Node | None = None) -> tuple:
    """Several views of ``src`` made by one op; ``node``, if given, has one output per view."""
    base = src if src._base is None else src._base
    outs = []
    for data in datas:
        t = Tensor._wrap(data)
        t._data = data  # (as in view_of)
        t._vc, t._base = src._vc, base
        outs.append(t)
    outs = tuple(outs)
    _attach(src, outs, outs[0] if len(outs) == 1 else outs, node)
    return outs


def _attach(src: Tensor, outs: tuple, recorded, node: Node | None) -> None:
    """The history of new views ``outs`` of ``src``: ``node`` records them (as ``recorded``:
    one view is recorded as one output, so an integer one raises), or they are marked as made
    without grad; each remembers the version its ``grad_fn`` describes (see _sync_view)."""
    if _mode.inference_mode or src._inference or src._data_inference:
        if src._data_normal:  # (no version counter, yet not an inference tensor: PyTorch's
            raise RuntimeError(NO_VERSION_MESSAGE)  # view reads the counter it lacks)
        for t in outs:  # a view is an inference tensor if its base is
            t._inference = src._inference or src._data_inference
    if node is not None:
        record(node, recorded, src)
        if src._view_no_grad or src._view_multi is not None:
            _chain(src, outs, node)
    elif src._view_no_grad or src._requires_grad or not is_grad_enabled():
        _made_without_grad(src, outs)
    for t in outs:
        t._view_vc = t._vc[0]


def _made_without_grad(src: Tensor, outs: tuple) -> None:
    """Views made in no_grad (or inference) mode, or views of those: PyTorch forbids modifying
    them in place once that would be recorded, and a view of a base requiring grad shows
    requires_grad=True but leads nowhere in a graph: its own flag stays False, so that it
    requires grad exactly while its base does (as PyTorch's view, which asks its base)."""
    mode = ("inference" if _mode.inference_mode else "no_grad" if not is_grad_enabled()
            else src._view_no_grad or "no_grad")
    for t in outs:
        t._view_no_grad = mode


def _chain(src: Tensor, outs: tuple, node: Node) -> None:
    """Views of a view that may not be modified in place are refused in the same way."""
    for t in outs:
        if src._view_no_grad:
            t._view_no_grad, t._view_chained = src._view_no_grad, True
        else:
            t._view_multi = type(node).__name__[:-9]


def mark_multi(outs: tuple, name: str) -> None:
    """The views made by split/chunk/unbind (``name``): modifying them in place is refused. A
    piece of a view made in no_grad mode is refused as a piece (PyTorch's newer rule wins),
    a piece of one made in inference mode as that."""
    for t in outs:
        t._view_multi = name
        if t._view_no_grad == "no_grad" and t.__dict__.get("_view_chained"):
            t._view_no_grad = t._view_chained = False


def overlapping(d: np.ndarray) -> bool:
    """Whether several elements of ``d`` share one memory location (an expanded dimension;
    never for an empty tensor)."""
    return 0 in d.strides and d.size > 0 and any(
        s == 0 and n > 1 for n, s in zip(d.shape, d.strides))  # (no 0 stride: the usual case)


def _dense(d: np.ndarray) -> bool:
    """PyTorch's *non-overlapping and dense*: the elements fill a block of memory without gaps,
    in some order of the dimensions."""
    expected = d.itemsize
    for stride, n in sorted((s, n) for n, s in zip(d.shape, d.strides) if n != 1):
        if stride != expected:
            return False
        expected *= n
    return True


def shared_memory(a: np.ndarray, b: np.ndarray) -> str | None:
    """How two arrays share memory, as PyTorch judges it: 'full' (the same elements, same
    layout), 'partial' (other overlaps), or None (apart, or too hard to tell: not dense)."""
    if a.size == 0 or b.size == 0 or not (_dense(a) and _dense(b)):
        return None
    a0, b0 = a.ctypes.data, b.ctypes.data
    a1, b1 = a0 + a.nbytes, b0 + b.nbytes
    if a0 == b0 and a1 == b1:
        return "full" if a.strides == b.strides else "partial"
    return "partial" if a0 < b1 and b0 < a1 else None


@method("data_ptr")
def data_ptr(self) -> int:
    """The address of the tensor's first element (a view's is inside its base's memory; an
    empty tensor's is 0)."""
    return self._data.ctypes.data if self._data.size else 0


def strided(data: np.ndarray, shape: tuple, strides: tuple) -> np.ndarray:
    """A view of ``data``'s memory, starting at its first element, with these sizes and byte
    strides; writable where ``data`` is (unlike ``np.broadcast_to``), as PyTorch's views are:
    writing into memory that several elements share is refused by the in-place ops instead."""
    return np.lib.stride_tricks.as_strided(data, shape, strides, writeable=data.flags.writeable)


# ---------------------------------------------------------------- where a view sits in its base
class Placement:
    """Where a view's elements sit in its base, found from their memory addresses.

    ``geometry()`` gives sizes, strides and storage offset (in elements, as PyTorch counts
    them); ``where()`` each element's index in the flattened base. Both are worked out only
    when first asked for (most in-place ops never need them: no backward runs through them).
    """

    __slots__ = ("arrays", "base_shape", "_geometry", "_where", "_row_major")

    def __init__(self, view: np.ndarray, base: np.ndarray):
        self.arrays = (view, base)
        self.base_shape = base.shape
        self._geometry = self._where = None
        self._row_major = False  # (not worked out yet)

    def geometry(self) -> tuple:
        if self._geometry is None:
            v, b = self.arrays
            item = v.itemsize
            # (a view whose memory ``.data =`` swapped: its offset in its own memory, as PyTorch's)
            start = b.ctypes.data if _within(v, b) else _owner(v).ctypes.data
            self._geometry = (v.shape, tuple(s // item for s in v.strides),
                              (v.ctypes.data - start) // item)
        return self._geometry

    def where(self) -> np.ndarray:
        if self._where is None:
            off = _offsets(*self.geometry())
            b = self.arrays[1]
            if not b.flags.c_contiguous:  # map memory offsets to row-major positions in b
                mine = _offsets(b.shape, tuple(s // b.itemsize for s in b.strides)).reshape(-1)
                order = np.argsort(mine, kind="stable")
                off = order[np.searchsorted(mine, off, sorter=order)]
            self._where = off
            self.arrays = None  # the memory itself is no longer needed
        return self._where

    def row_major(self) -> tuple | None:
        """The view's sizes, strides and offset in a row-major array of the base's shape (where
        a gradient for the base is written, as PyTorch writes it through ``as_strided``); None
        when its elements share places or do not form a strided view of that array."""
        if self._row_major is False:
            self._row_major = _strided_positions(self.where(), int(np.prod(self.base_shape)))
        return self._row_major


def _owner(a: np.ndarray) -> np.ndarray:
    """The array that owns ``a``'s memory (the end of its chain of ``.base``)."""
    owner = a
    while getattr(a, "base", None) is not None:  # (as_strided puts a non-array in the chain)
        a = a.base
        if isinstance(a, np.ndarray):
            owner = a
    return owner


def _within(v: np.ndarray, b: np.ndarray) -> bool:
    """Whether the memory ``v`` reads lies in ``b``'s."""
    def bounds(a):
        lo = hi = a.ctypes.data
        for n, s in zip(a.shape, a.strides):
            lo, hi = (lo + (n - 1) * s, hi) if s < 0 else (lo, hi + (n - 1) * s)
        return lo, hi + a.itemsize
    if not v.size:
        return True
    (vlo, vhi), (blo, bhi) = bounds(v), bounds(b)
    return blo <= vlo and vhi <= bhi


def _strided_positions(where: np.ndarray, size: int) -> tuple | None:
    """Sizes, strides and offset that give the (distinct) positions ``where``, if any do and
    all lie in an array of ``size`` elements (a view whose memory was swapped by ``.data =``
    may not: then None, and no write goes through them)."""
    if where.size == 0 or where.min() < 0 or where.max() >= size:
        return None
    first = int(where.reshape(-1)[0])
    strides = tuple(int(np.take(where, 1, k).reshape(-1)[0]) - first if n > 1 else 1
                    for k, n in enumerate(where.shape))
    if (min(strides, default=1) > 0 and np.unique(where).size == where.size
            and np.array_equal(_offsets(where.shape, strides, first), where)):
        return where.shape, strides, first
    return None


def _offsets(sizes, strides, offset=0) -> np.ndarray:
    """The memory offset of every element of an array with this geometry."""
    out = np.full(sizes, offset, np.int64)
    for k, (n, s) in enumerate(zip(sizes, strides)):
        out += (np.arange(n, dtype=np.int64) * s).reshape((n,) + (1,) * (len(sizes) - k - 1))
    return out


def put_flat(x, where: np.ndarray, values, accumulate: bool):
    """``x`` with ``values`` put (or added) at the positions ``where`` of its flattened form."""
    flat = where.reshape(-1)
    return F.index_put(x.reshape(-1), (Tensor._wrap(flat),), flat, values.reshape(-1),
                       accumulate).reshape(x.shape)


class AsStridedBackward0(Node):
    """z = the view's elements read from its base's memory (after the base changed in place):
    each element's gradient is added back at the place it was read from."""

    rule = _r("z = as_strided(a, size, stride, offset)", words=True,
              a="grad added back to the memory each element was read from")

    saved = ("size", "storage_offset", "stride")
    _s_size = property(lambda self: self._placement.geometry()[0])
    _s_stride = property(lambda self: self._placement.geometry()[1])
    _s_storage_offset = property(lambda self: self._placement.geometry()[2])

    def backward(self, g):
        p = self._placement
        at = p.row_major()
        if at is None:  # elements read twice (their gradients add up), or outside the base
            where, size = p.where(), int(np.prod(p.base_shape))
            outside = (where < 0) | (where >= size)  # (memory swapped by `.data =`: dropped)
            if outside.any():
                where, g = np.where(outside, 0, where), F.masked_zero(g, outside)
            return (put_flat(F.zeros(p.base_shape, g), where, g, True),)
        storage = F.zeros((int(np.prod(p.base_shape)),), g)  # (PyTorch's as_strided_backward)
        F.copy_(F.strided(storage, at), g)
        return (F.strided(storage, (p.base_shape, row_major_strides(p.base_shape), 0)),)


@method("_sync_view")
def _sync_view(self) -> None:
    """Bring a view's grad_fn up to date after its memory was changed in place.

    Like PyTorch, this happens when the grad_fn is next needed: the view then reads its values
    from the base's current history through an ``AsStridedBackward0`` node.
    """
    vc = self._vc[0]
    base = self._base
    if self._view_vc == vc or (self._grad_fn is None and not base._requires_grad):
        return
    if self._view_vc is not None:
        _check_rebased_view(self)
    seen, self._view_vc = self._view_vc, vc
    if seen is None:  # a view not made by view_of (a custom Function's alias): take it as new
        return
    node, old = AsStridedBackward0(), self._grad_fn
    node._placement = Placement(self._data, base._data)
    if self._data.dtype.kind in "fc":
        record(node, self, base)
    else:
        state, _mode.any_dtype = _mode.any_dtype, True  # (an integer base given a history)
        try:
            record(node, self, base)
        finally:
            _mode.any_dtype = state
    self._history_changed(old)  # (retain_grad follows the new grad_fn, as in PyTorch)


MULTI = ("This view is the output of a function that returns multiple views. Such functions "
          "do not allow the output views to be modified inplace. You should replace the inplace "
          "operation by an out-of-place one.")
AMBIGUOUS = ("Given that this use case is ambiguous and error-prone, it is forbidden. You can "
              "clarify your code by moving both the view and the inplace either both inside the "
              "no_grad block (if you don't want the inplace to be tracked) or both outside (if you "
              "want the inplace to be tracked).")


def made_without_grad(self: Tensor, rebased: bool = False) -> str:
    """PyTorch's refusal to modify in place (or, ``rebased``, to bring up to date after its base
    changed in place) a view made in no_grad or inference mode, or a view of such a view."""
    mode = self._view_no_grad or "no_grad"  # (False: a split of a base not requiring grad)
    d = self.__dict__
    if d.get("_view_chained"):
        head = (f"Output {self._output_nr} of {_op_name(self._grad_fn)} is a view of a view "
                f"which was created in {mode} mode and")
    else:
        head = f"A view was created in {mode} mode and"
    change = ("its base or another view of its base has been modified inplace" if rebased
              else "is being modified inplace")
    if mode == "no_grad":
        why = AMBIGUOUS if self._view_no_grad else MULTI
        return f"{head} {change} with grad mode enabled. {why}"
    why = AMBIGUOUS.replace("no_grad block", "inference_mode block")
    return f"{head} {change} in normal mode. {why}"


def _check_rebased_view(self: Tensor) -> None:
    """PyTorch's refusal to give a new grad_fn to a view whose base (or another view of it)
    changed in place, when the view was made in no_grad mode or by split/chunk/unbind."""
    if self._view_no_grad:
        raise RuntimeError(made_without_grad(self, rebased=True))
    multi = self.__dict__.get("_view_multi")
    if multi is None:
        return
    changed = "its base or another view of its base has been modified inplace"
    if self._grad_fn is None:
        raise RuntimeError(f"A view was created in no_grad mode and {changed} with grad mode "
                           f"enabled. {MULTI}")
    raise RuntimeError(f"Output {self._output_nr} of {multi} is a view and {changed}. {MULTI}")


# ---------------------------------------------------------------- as_strided
class _Memory:
    """An array interface over memory that an array already owns (what NumPy's own
    ``as_strided`` builds on); ``base`` keeps that array alive."""

    def __init__(self, interface: dict, base: np.ndarray):
        self.__array_interface__, self.base = interface, base


def _storage(data: np.ndarray) -> np.ndarray:
    """The array owning ``data``'s memory: PyTorch's *storage* of a tensor."""
    while True:
        b = data.base
        if isinstance(b, np.ndarray):
            data = b
        elif isinstance(getattr(b, "base", None), np.ndarray):  # (a view made by strided())
            data = b.base
        else:
            return data


def _ints(values) -> str:
    return ", ".join(map(str, values))


@method("storage_offset")
def offset_in_storage(input) -> int:
    """Where the tensor's first element sits in its storage, counted in elements."""
    data = input._data
    return (data.ctypes.data - _storage(data).ctypes.data) // data.itemsize


@method("as_strided")
def as_strided(input, size, stride, storage_offset=None) -> Tensor:
    """A view of the input's memory (its storage) with the given sizes, strides and offset,
    all counted in elements; ``storage_offset`` defaults to the input's own."""
    size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError("as_strided: Negative strides are not supported at the moment, got "
                           f"strides: [{_ints(stride)}]")
    data = input._data
    store, item = _storage(data), data.itemsize
    offset = offset_in_storage(input) if storage_offset is None else storage_offset
    need = 0 if 0 in size else item * (offset + 1 + sum((n - 1) * s for n, s in zip(size, stride)))
    if need > store.nbytes:
        raise RuntimeError(
            f"setStorage: sizes [{_ints(size)}], strides [{_ints(stride)}], storage offset "
            f"{offset}, and itemsize {item} requiring a storage size of {need} are out of bounds "
            f"for storage of size {store.nbytes}")
    memory = {"shape": size, "strides": tuple(s * item for s in stride), "version": 3,
              "typestr": data.dtype.str, "descr": data.dtype.descr,
              "data": (store.ctypes.data + offset * item, not data.flags.writeable)}
    out = np.asarray(_Memory(memory, store))
    node = None
    if should_record(input):
        node = AsStridedBackward0()
        node._placement = Placement(out, data)
    return view_of(input, out, node)
