"""Small helpers shared by backward formulas (each works on arrays and on tensors alike), and
the layout of a leaf's ``.grad`` (arrays)."""

from __future__ import annotations

from array import array

import numpy as np

from .._dtype import from_numpy_dtype
from .._layout import _dense, like_input
from .._state import local as _mode
from .._summation import reduce_sum, sum_leading
from .._tensor import Tensor
from .._types import element_strides, row_major_strides
from .zero_tensor import ZeroArray, as_grad

__all__ = ["sum_to", "expand_to", "first_grad", "copied", "in_layout_of", "obeys_contract",
           "clone_obey_contract", "torch_strides", "writable_view", "share_version",
           "given_views", "overlapping", "row_major_clone", "refuse_inference", "only_inference",
           "not_into"]

_ndarray = np.ndarray  # (a global: cheaper than np.ndarray, see _tensor.py)
_wrap = Tensor._wrap


def sum_to(g, shape: tuple, dtype=None):
    """Sum ``g`` over the dimensions that broadcasting added, so it has ``shape`` again.

    This is where every op's gradient is un-broadcast (``x + b`` with ``b`` of shape ``(3,)``
    and ``x`` of shape ``(2, 3)`` gives ``b`` a gradient summed over the first dimension).
    ``dtype`` (NumPy's or minigrad's) casts the result back to the input's dtype.

    >>> sum_to(np.ones((2, 3)), (3,))
    array([2., 2., 2.])
    >>> sum_to(np.ones((2, 3)), (2, 1))
    array([[3.],
           [3.]])
    """
    if type(g) is _ndarray and g.ndim == len(shape) + 1 and g.shape[1:] == shape and \
            (dtype is None or dtype is g.dtype) and g.dtype.kind == "f" and g.dtype.itemsize > 2:
        return sum_leading(g, 1)  # (the commonest: a bias's gradient summed over the batch)
    shape = tuple(shape)
    gshape = tuple(g.shape)
    tensor = not isinstance(g, (np.ndarray, np.generic))
    if gshape != shape:
        lead = len(gshape) - len(shape)
        if not tensor and gshape[lead:] == shape and g.dtype.kind == "f" and \
                g.dtype.itemsize > 2:  # (quicker: only leading dims added, as a bias's)
            return _cast(sum_leading(g, lead), dtype, False)
        ones = tuple(i + lead for i, s in enumerate(shape) if s == 1 and gshape[i + lead] != 1)
        if tensor:  # as PyTorch's at::sum_to, so a second-order graph has its nodes
            if not shape:
                return _cast(g.sum(), dtype, tensor)
            dims = tuple(range(lead)) + ones
            if dims:
                g = g.sum(dim=dims, keepdim=True)
            if lead:
                g = g.view(shape)
        elif g.dtype.kind == "f" and g.dtype.itemsize > 2:  # one sum, in PyTorch's order
            g = reduce_sum(g, tuple(range(lead)) + ones, keepdims=True)
        else:
            if ones:
                g = g.sum(axis=ones, keepdims=True)
            if lead:
                g = g.sum(axis=tuple(range(lead)))
        if tuple(g.shape) != shape:  # a 0-d result, or a size-1 dim on both sides
            g = g.reshape(shape)
    return _cast(g, dtype, tensor)


def _cast(g, dtype, tensor: bool):
    """``g`` in ``dtype`` (NumPy's or minigrad's; None: as it is)."""
    if dtype is not None:
        dtype = getattr(dtype, "np", dtype)  # a minigrad dtype or a NumPy one
        if not tensor:
            if g.dtype != dtype:  # (PyTorch's grad.to(dtype): preserve_format)
                src, g = g, np.asarray(g).astype(dtype)
                if 1 in g.shape:  # (a size-1 dimension keeps its stride, 0 included)
                    g = like_input(g, src)
        elif g._data.dtype != dtype:
            g = g.to(from_numpy_dtype(dtype))
    return g


def expand_to(g, shape: tuple):
    """``g`` repeated to ``shape`` as a read-only view (no copy), like PyTorch's ``expand``.

    The gradient of a full reduction (``sum``, ``mean``) is its one-element gradient expanded
    to the input's shape. ``np.broadcast_to`` does this too, but costs microseconds of Python
    for a tiny array; a one-element array is viewed with zero strides directly.

    >>> expand_to(np.array(2.0), (2, 3))
    array([[2., 2., 2.],
           [2., 2., 2.]])
    """
    if isinstance(g, _ndarray) and g.size == 1 and g.flags.c_contiguous:
        view = _ndarray(shape, g.dtype, g, 0, (0,) * len(shape))
        view.flags.writeable = False
        return view
    return np.broadcast_to(g, shape)


def overlapping(like: np.ndarray) -> bool:
    """Whether the leaf ``like`` is not PyTorch's ``is_non_overlapping_and_dense`` (expanded)."""
    return not _dense(like.shape, element_strides(like))


def row_major_clone(g):
    """``g.clone(memory_format=torch.contiguous_format)``: recorded (``CloneBackward0``)."""
    t = g.clone()
    t._data = np.ascontiguousarray(t._data)
    return t


def refuse_inference(grad) -> None:
    """PyTorch's error for an inference ``.grad`` (made in inference mode) added to in place
    outside inference mode: raised after the add, as PyTorch's."""
    if not _mode.inference_mode:
        from .._ops.inplace_checks import INFERENCE  # (late: the ops import the autograd)
        raise RuntimeError(INFERENCE)


def only_inference(operands) -> bool:
    """Whether an op's operands (None aside) are all inference tensors: PyTorch's dispatch then
    skips autograd (they have no autograd key), so nothing is recorded even where one requires
    grad. A Python number counts as a normal tensor (PyTorch wraps it in one: ``t * 2`` is
    recorded, ``t.relu()`` is not)."""
    for t in operands:
        if t is not None and not (getattr(t, "_inference", False) and t.is_inference()
                                  or getattr(t, "_data_inference", False)):
            return False
    return True


def first_grad(like: np.ndarray, grad, owned: bool, views: dict | None):
    """The leaf's first ``.grad`` (``in_layout_of``), sharing the version counter of the memory
    it views if it was kept (``share_version``)."""
    strides = grad.strides
    if strides == like.strides and grad.shape == like.shape and 0 not in strides and \
            type(grad) is _ndarray:
        flags = grad.flags  # the common case: a row-major gradient of a row-major leaf
        if flags.c_contiguous:
            if not owned:
                return copied(grad.copy())
            if flags.writeable:  # kept
                t = _wrap(grad)
                if grad.base is not None and views is not None:  # (a view: nn.Linear's
                    share_version(t, grad, views)  # weight gradient, of fresh memory)
                return t
    if isinstance(grad, np.generic):  # (a NumPy scalar, as indexing gives: a 0-d array)
        grad = np.array(grad)
    t = as_grad(data := in_layout_of(like, grad, owned))
    if data is grad or data.base is not None and np.may_share_memory(data, grad):  # kept
        if data.base is not None and views is not None:  # (a view: of whose memory?)
            share_version(t, data, views)
    elif type(data) is _ndarray:  # a copy (a ZeroArray's stays a ZeroTensor, as PyTorch's)
        t._vc = array("q", (1,))
    return t


def copied(data: np.ndarray):
    """A ``.grad`` PyTorch copied the gradient into (``new_empty_strided(...).copy_(grad)``):
    its version is 1, ``copy_`` counting as a change."""
    t = _wrap(data)
    t._vc = array("q", (1,))
    return t


def in_layout_of(like: np.ndarray, grad: np.ndarray, owned: bool) -> np.ndarray:
    """The first ``.grad`` of the leaf whose array is ``like``, as PyTorch's ``AccumulateGrad``
    stores it: ``grad`` itself if the engine ``owned`` it (no other tensor object holds it; it
    may still share memory, as a view) and it obeys the layout contract, else a copy that does
    (``clone_obey_contract``: in the leaf's strides, and in its shape if an in-place shape op
    or ``.data =`` changed the leaf since; a row-major copy for an expanded leaf)."""
    strides = grad.strides
    if strides == like.strides and grad.shape == like.shape and 0 not in strides:
        flags = grad.flags  # a row-major gradient of a row-major leaf
        if flags.c_contiguous:
            if owned and flags.writeable:
                return grad
            if not owned:
                return grad.copy()
    zeros = type(grad) is ZeroArray  # (PyTorch's ZeroTensor: immutable, kept as it is)
    if (owned or zeros) and obeys_contract(grad, like):
        if zeros or grad.flags.writeable:
            return grad
        kept = writable_view(grad)  # (read-only: a view of minigrad's own broadcast)
        if kept is not None:
            return kept
    return clone_obey_contract(grad, like)


def writable_view(a: np.ndarray) -> np.ndarray | None:
    """``a`` as a writable view of the same memory, if the array owning that memory is
    writable (``a`` is a read-only view of a broadcast: the gradient of a sum, a slice of it);
    None otherwise (a ZeroTensor's memory, a scalar)."""
    owner = _owner(a)
    if not isinstance(owner, _ndarray) or not owner.flags.writeable:
        return None
    offset = a.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
    try:
        return _ndarray(a.shape, a.dtype, owner, offset, a.strides)
    except (TypeError, ValueError):  # (memory NumPy cannot view so: copied instead)
        return None


def share_version(t, data: np.ndarray, views: dict) -> None:
    """Give the kept ``.grad`` ``t`` (array ``data``, a view) the version counter of the tensor
    whose memory it views, as PyTorch's stolen gradient shares it: a gradient given to
    backward, or another leaf's ``.grad`` made of the same gradient this pass (``views``: id of
    the memory's owner -> (owner, the first tensor seen to view it))."""
    owner = _owner(data)
    entry = views.get(id(owner))
    if entry is None:  # (its version counter is made only if a second tensor comes)
        views[id(owner)] = (owner, t)
    else:
        t._vc = entry[1]._vc


def given_views(tensors) -> dict:
    """``share_version``'s start: the memory of the gradients given to backward."""
    views = {}
    for g in tensors:
        if g is not None:
            owner = _owner(g._data)
            views[id(owner)] = (owner, g)
    return views


def _owner(a):
    """The object owning the memory array ``a`` views (``a`` itself if it owns it)."""
    while isinstance(a, _ndarray) and a.base is not None:
        a = a.base
    return a


def torch_strides(a: np.ndarray) -> tuple:
    """The strides (in elements) PyTorch's tensor of the gradient array ``a`` has: its own,
    except a new empty array NumPy made (all strides 0), row-major as ``Tensor._wrap`` makes
    it (a view of a tensor keeps that tensor's)."""
    if a.size or not a.ndim or any(a.strides) or a.base is not None:
        return element_strides(a)
    return row_major_strides(a.shape)


def obeys_contract(grad: np.ndarray, like: np.ndarray) -> bool:
    """PyTorch's ``obeys_layout_contract(grad, variable)``: for a leaf that is non-overlapping
    and dense, each dimension of the gradient of size other than 1 has the leaf's stride at
    that index, and none of size 1 has stride 0 (the views cat and stack give); for any other
    leaf, the gradient is row-major."""
    shape, strides = grad.shape, torch_strides(grad)
    mine = element_strides(like)
    if _dense(like.shape, mine):
        for i, n in enumerate(shape):
            if n != 1:
                if i >= len(mine) or strides[i] != mine[i]:  # (PyTorch reads past the end)
                    return False
            elif not strides[i]:
                return False
        return True
    return not grad.size or all(n == 1 or s == r for n, s, r in
                                zip(shape, strides, row_major_strides(shape)))


def clone_obey_contract(grad: np.ndarray, like: np.ndarray) -> np.ndarray:
    """PyTorch's ``clone_obey_contract``: for a non-overlapping and dense leaf, new memory in
    the leaf's shape and strides with ``grad`` copied in (broadcast as ``copy_`` does, with its
    error if it cannot); for any other leaf, a row-major copy of ``grad``."""
    mine = element_strides(like)
    if not _dense(like.shape, mine):
        return np.array(grad, order="C")
    if grad.shape != like.shape and not_into(like.shape, grad.shape):
        raise not_into(like.shape, grad.shape)
    shape, item = like.shape, grad.itemsize
    span = 0 if 0 in shape else 1 + sum((n - 1) * s for n, s in zip(shape, mine))
    out = np.ndarray(shape, grad.dtype, buffer=np.empty(span, grad.dtype),
                     strides=tuple(s * item for s in mine))
    np.copyto(out, grad)
    return out


def not_into(target: tuple, source: tuple) -> RuntimeError | None:
    """PyTorch's error for copying or adding in place an array of shape ``source`` into one of
    shape ``target`` that it does not broadcast to (None if it does)."""
    for i in range(1, min(len(target), len(source)) + 1):
        a, b = target[-i], source[-i]
        if a != b and 1 not in (a, b):
            return RuntimeError(f"The size of tensor a ({a}) must match the size of tensor b "
                                f"({b}) at non-singleton dimension "
                                f"{max(len(target), len(source)) - i}")
    shape = np.broadcast_shapes(target, source)
    if shape != tuple(target):
        return RuntimeError(f"output with shape [{', '.join(map(str, target))}] doesn't match "
                            f"the broadcast shape [{', '.join(map(str, shape))}]")
    return None
