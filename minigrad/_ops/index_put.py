"""index_put and index_put_: values written (or added) at tensor indices, with PyTorch's checks
in PyTorch's order: the number of indices, then (in place) the memory the values and indices
share with the tensor written, then the indices themselves (dtypes, masks, broadcasting, empty
dimensions), the values' shape, their dtype, and last the index values' bounds.

>>> import minigrad as torch
>>> x = torch.zeros(4)
>>> x.index_put_((torch.tensor([1, 1, 3]),), torch.tensor(2.), accumulate=True)
tensor([0., 4., 0., 2.])
>>> x.index_put_((torch.tensor([0]), torch.tensor([0])), x[:1])
Traceback (most recent call last):
IndexError: too many indices for tensor of dimension 1 (got 2)
"""

from __future__ import annotations

import warnings

import numpy as np

from .._layout import like_input
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.graph import Node, record, should_record
from ..autograd.saved import check_saved
from . import _formula as F
from ._core import method
from .index_checks import check_bounds, mask_fits, numpy_index, written_before_bad_index
from .indexing import _as_index, refuse_inference_indices
from .inplace_checks import SHARED_WITH_INPUT, check_inplace, overlaps
from .views import overlapping

__all__ = ["index_put"]  # (torch.index_put; the in-place ops import the helpers by name)


def expanded_warning(op: str, index: str, value: str, stacklevel: int = 8) -> None:
    """PyTorch's deprecation warning for an in-place write into expanded memory."""
    warnings.warn(f"Use of {op} on expanded tensors is deprecated. Please clone() the tensor "
                  "before performing this operation. This also applies to advanced indexing "
                  f"e.g. tensor[{index}] = {value}", UserWarning, stacklevel=stacklevel)


def values_must_be_a_tensor(values, fn: str, indices=(), arg: int = 0) -> None:
    """``index_put``/``index_put_`` take a tuple of index tensors and a tensor of values
    (PyTorch's errors for anything else; ``arg``: the place of the indices, 0 for the method).
    """
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"{fn}(): argument 'indices' (position {arg + 1}) must be tuple of "
                        f"Tensors, not {type(indices).__name__}")
    for k, i in enumerate(indices):
        if not isinstance(i, Tensor):
            raise TypeError(f"expected Tensor as element {k} in argument {arg}, but got "
                            f"{type(i).__name__}")
    if not isinstance(values, Tensor):
        raise TypeError(f"{fn}(): argument 'values' (position {arg + 2}) must be Tensor, not "
                        f"{type(values).__name__}")


class IndexPutBackward0(Node):
    """z = self with values put at indices:
    dz/dself = 1 except where overwritten (unless accumulating),  dz/dvalues = grad[indices].
    """

    rule = _r("z = a with v put at indices", words=True,
              a="grad, with zeros at indices (unless accumulate)", v="grad[indices]")

    saved = ("accumulate", "indices")  # and _where: the indices as a NumPy index
    saved_lists = ("indices",)
    _unfit = None  # (indexed shape, values' shape) where the one cannot be summed to the other

    def backward(self, g):
        check_saved(self)  # (freed indices)
        if self._unfit is not None and self.next_functions[1][0] is not None:
            raise RuntimeError(f"Function {self.name()} returned an invalid gradient at index 1 "
                               f"- got {self._unfit[0]} but expected shape compatible with "
                               f"{self._unfit[1]}")
        gs = gv = None
        if self.next_functions[0][0] is not None:
            gs = g if self._s_accumulate else F.index_put(
                g, self._s_indices, self._where, F.zeros((), g), False)
        if self.next_functions[1][0] is not None:
            gv = F.index(g, self._s_indices, self._where)
        return gs, gv


class IndexPutImplBackward0(IndexPutBackward0):
    """The accumulating index_put made by IndexBackward0's backward (create_graph=True)."""

    rule = _r("z = a with v added at indices", words=True,
              a="grad, with zeros at indices (unless accumulate)", v="grad[indices]")


@method("_index_put_impl")
def _index_put_impl(input, indices, values, accumulate=False):
    """PyTorch's ``_index_put_impl_`` (as a formula uses it): ``index_put`` whose node is
    ``IndexPutImplBackward0`` when it accumulates, as in PyTorch's gradient of ``x[indices]``."""
    cls = IndexPutImplBackward0 if accumulate else IndexPutBackward0
    return _index_put(input, indices, values, accumulate, cls)


def _count(input, indices) -> None:
    if len(indices) > input._data.ndim:
        raise IndexError(f"too many indices for tensor of dimension {input._data.ndim} "
                         f"(got {len(indices)})")


def _fills_by_mask(input, indices, values, accumulate) -> bool:
    """PyTorch writes one value through one boolean mask (the other entries None) as
    ``masked_fill_(mask, value.item())``: then the value's dtype and shape need not match
    (``int_tensor[mask] = float_tensor_of_one``), nor is its memory looked at. Deciding that,
    it checks the shape of a mask it meets before any other index tensor."""
    if accumulate or values._data.size != 1:
        return False
    dim, mask = 0, None
    for i in indices:
        if i is None:
            dim += 1
            continue
        if mask is not None or not isinstance(i, Tensor) or i._data.dtype.kind not in "bu":
            return False
        mask = i
        mask_fits(i._data.shape, input._data.shape, dim)
        dim += i._data.ndim
    return mask is not None


def _mask_where(indices) -> tuple:
    """The NumPy index of a mask filled with one value (a 0-d mask too: all or nothing)."""
    return tuple(slice(None) if i is None else i._data.astype(bool, copy=False) for i in indices)


def _result_shape(shape: tuple, where: tuple) -> tuple:
    """The shape of ``x[where]`` for an ``x`` of ``shape``, without gathering: the indexed
    dimensions become the broadcast index shape, in their place if they are adjacent, else
    first (NumPy's rule, and PyTorch's)."""
    spans, sizes, dim = [], [], 0
    for a in where:
        if type(a) is slice:
            dim += 1
            continue
        k = a.ndim if a.dtype.kind == "b" else 1
        spans.append((dim, dim + k))
        sizes.append((int(a.sum()),) if a.dtype.kind == "b" else a.shape)
        dim += k
    if not spans:
        return shape
    full = tuple(sizes[0]) if len(sizes) == 1 else np.broadcast_shapes(*sizes)
    if all(end == start for (_, end), (start, _) in zip(spans, spans[1:])):
        return shape[:spans[0][0]] + full + shape[spans[-1][1]:]
    taken = {d for start, end in spans for d in range(start, end)}
    return full + tuple(n for d, n in enumerate(shape) if d not in taken)


def _expandable(shape: tuple, to: tuple) -> bool:
    return len(shape) <= len(to) and all(n in (1, m) for n, m in zip(shape[::-1], to[::-1]))


NO_INDICES = (  # (PyTorch fails inside, with an internal error that depends on the shapes)
    "index_put with an empty tuple of indices: PyTorch 2.13 fails inside on this call (an "
    "internal error such as 'masked_fill_ only supports boolean masks, but got mask with dtype "
    "nullptr'), so minigrad refuses it too. To write the whole tensor, use x.copy_(values) or "
    "x[...] = values.")


def _index_put(input, indices, values, accumulate=False, cls=IndexPutBackward0,
               expanded: bool | None = None):
    """``expanded``: None out of place, else (in place) whether ``input``'s memory is. Into
    expanded memory PyTorch writes only the indexed elements, one after the other (elements
    sharing memory then all show the last write): done there, after every check, the result
    a copy of what the memory then holds (so writing it back changes nothing)."""
    recorded = should_record(input, values)  # (a stale view's refusal comes before the rest)
    if recorded:
        refuse_inference_indices(indices)
    _count(input, indices)
    fills = _fills_by_mask(input, indices, values, accumulate)
    if expanded is not None:
        _in_place_checks(input, indices, values, fills, expanded)
    indices = [None if i is None else _as_index(i) for i in indices]
    where = numpy_index(input, indices)
    if not fills:
        target = _result_shape(input._data.shape, where)
        if not _expandable(values._data.shape, target):
            raise RuntimeError(
                f"shape mismatch: value tensor of shape [{', '.join(map(str, values.shape))}] "
                f"cannot be broadcast to indexing result of shape "
                f"[{', '.join(map(str, target))}]")
        if values._data.dtype != input._data.dtype:
            raise RuntimeError(
                "Index put requires the source and destination dtypes match, got "
                f"{input.dtype._legacy_name[:-6]} for the destination and "
                f"{values.dtype._legacy_name[:-6]} for the source.")
    if not indices:
        raise RuntimeError(NO_INDICES)
    try:
        where = check_bounds(input._data.shape, where) if not fills else _mask_where(indices)
    except IndexError:
        if expanded is not None:  # (in place: PyTorch's kernel wrote the elements before)
            _write_before_bad_index(input, where, values._data, accumulate)
        raise
    # (out of place: PyTorch's clone(preserve_format) of the input, written into)
    data = input._data if expanded else like_input(np.array(input._data), input._data)
    if accumulate:
        np.add.at(data, where, values._data)
    else:
        data[where] = values._data.reshape(()) if fills else values._data
    out = Tensor._wrap(np.array(data) if expanded else data)
    if recorded:
        node = cls()
        node._s_accumulate, node._s_indices, node._where = accumulate, tuple(indices), where
        record(node, out, input, values, broadcast=True)
        _sum_values_to_their_shape(node, input, values, where)
    return out


def _write_before_bad_index(input, where, values, accumulate: bool) -> None:
    if input._data.flags.writeable:
        at, values = written_before_bad_index(input._data, where, values)
        if accumulate:
            np.add.at(input._data, at, values)
        else:
            input._data[at] = values


def _sum_values_to_their_shape(node, input, values, where) -> None:
    """The values' gradient is ``grad[indices]``, of the indexed elements' shape (not the
    result's, which ``record`` un-broadcasts to): summed back where the values were
    broadcast to the indexed elements (one value put at three indices gets their sum)."""
    indexed, shape = _result_shape(input._data.shape, where), values._data.shape
    if shape != indexed:
        node._sum_to = [None if node._sum_to is None else node._sum_to[0],
                        (shape, values._data.dtype)]
        if not _expandable(shape, indexed):  # (one value filling a mask, with more dims)
            node._unfit = (list(indexed), list(shape))


def index_put(input, indices, values, accumulate: bool = False):
    """A copy of ``input`` with ``values`` written (or added) at the tensor ``indices``."""
    values_must_be_a_tensor(values, "index_put", indices, arg=1)
    return _index_put(input, indices, values, accumulate)


@method("index_put")
def _index_put_method(self, indices, values, accumulate: bool = False):
    """``x.index_put(indices, values)`` (the arguments counted from ``indices``)."""
    values_must_be_a_tensor(values, "index_put", indices)
    return _index_put(self, indices, values, accumulate)


_index_put_method.__name__ = _index_put_method.__qualname__ = "index_put"


def index_put_checks(self, indices, values) -> None:
    """What ``index_put_`` checks before the in-place recipe: its arguments, then, for an
    inference tensor changed outside inference mode (refused after the write), what PyTorch's
    autograd checks first: the leaf's refusal, an inference index tensor saved."""
    values_must_be_a_tensor(values, "index_put_", indices)
    if self._inference and should_record(self, values):
        check_inplace(self, (values,))
        refuse_inference_indices(indices)


def put_in_place(self, indices, values, accumulate: bool = False):
    """``index_put`` as ``index_put_`` runs it on ``self`` (see ``_in_place_checks``)."""
    return _index_put(self, indices, values, accumulate, expanded=overlapping(self._data))


def _in_place_checks(self, indices, values, fills: bool, expanded: bool) -> None:
    """After the count of the indices: a warning for expanded memory, then, unless one value
    fills a mask, the values and each index tensor must not share memory with ``self``."""
    if expanded:
        expanded_warning("index_put_", "indices", "tensor")
    if fills:
        if expanded:
            expanded_warning("masked_fill_", "mask", "scalar")
        return
    for a in (values, *indices):
        if isinstance(a, Tensor) and overlaps(self, a, full=True):
            raise RuntimeError(SHARED_WITH_INPUT)
