"""Joining and splitting: cat, stack (new tensors) and split, chunk, unbind, tensor_split (views).

``split``, ``chunk`` and ``unbind`` return several views made by *one* node: the outputs are
outputs 0, 1, 2, ... of it (``t.output_nr``), and its backward receives one gradient per output.
``tensor_split`` returns slices, each with its own ``SliceBackward0``, as in PyTorch.

>>> import minigrad as torch
>>> a, b = torch.tensor([1., 2., 3.], requires_grad=True).split(2)
>>> a.grad_fn is b.grad_fn, b.output_nr
(True, 1)
"""

from __future__ import annotations

import numpy as np

from .._dtype import result_type
from .._tensor import Tensor
from .._types import invalid_combination
from ..autograd._rule import _r
from ..autograd.graph import Node, record, should_record
from . import _formula as F
from ._core import method
from .errors import needs_dims, no_dims
from .indexing import _slice
from .movement import u64, views_of
from .views import mark_multi

__all__ = ["cat", "concat", "concatenate", "stack", "split", "chunk", "unbind", "tensor_split"]


def _along(dim: int, index) -> tuple:
    """An index picking ``index`` (an int or a slice) along dimension ``dim``."""
    return (slice(None),) * dim + (index,)


# ---------------------------------------------------------------- cat / stack
class CatBackward0(Node):
    """z = cat(tensors, dim):  each input gets its own slice of the gradient."""

    rule = _r("z = cat([a0, a1, ...], dim)", words=True,
              **{"*": "the slice of grad where that input sits"})

    saved = ("dim",)  # and _sizes: each input's length along dim (-1: a skipped empty input)

    def backward(self, g):
        out, start, d = [], 0, self._dim
        for n in self._sizes:
            if n < 0:  # a skipped 1-d empty input gets an empty gradient
                out.append(g.reshape(-1)[:0])
                continue
            out.append(F.narrow(g, d, start, n))
            start += n
        return tuple(out)


class StackBackward0(Node):
    """z = stack(tensors, dim):  input i gets the gradient's i-th entry along ``dim``."""

    rule = _r("z = stack([a0, a1, ...], dim)", words=True,
              **{"*": "grad.select(dim, i) for input i"})

    saved = ("dim",)

    def backward(self, g):  # (an array's entries as views, 0-d ones too: PyTorch's select)
        end = (...,) if type(g) is np.ndarray else ()
        return tuple(g[_along(self._dim, i) + end] for i in range(len(self.next_functions)))


def _check_list(tensors, name: str):
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, "
                        f"not {type(tensors).__name__}")


def _promoted(tensors) -> np.dtype:
    dt = tensors[0]._data.dtype
    if all(t._data.dtype == dt for t in tensors):
        return dt
    return result_type(*tensors).np


def _row_major(join, datas, axis: int, dtype) -> np.ndarray:
    """``join(datas, axis)`` (np.concatenate or np.stack) as a row-major array, as PyTorch's
    cat and stack give (NumPy would keep a transposed or expanded input's layout)."""
    out = join(datas, axis=axis, dtype=dtype)
    return out if out.flags.c_contiguous else np.ascontiguousarray(out)


def cat(tensors, dim: int = 0, *, out=None):
    """Join tensors along an existing dimension ``dim`` (1-d empty tensors are skipped)."""
    if out is not None:
        from .out import write_out
        return write_out(cat, out, tensors, dim)
    _check_list(tensors, "cat")
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if not t._data.ndim:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    used = [t for t in tensors if t._data.shape != (0,)] or list(tensors[:1])
    first = used[0]
    d = first._wrap_dim(dim) if first._data.shape != (0,) else 0  # (all skipped: dim unread)
    for t in used[1:]:
        if t._data.ndim != first._data.ndim:
            raise RuntimeError("Tensors must have same number of dimensions: got "
                               f"{first._data.ndim} and {t._data.ndim}")
    for i, t in enumerate(tensors):
        for k, (a, b) in enumerate(zip(first._data.shape, t._data.shape)):
            if k != d and a != b and t._data.shape != (0,):
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size {a} "
                    f"but got size {b} for tensor number {i} in the list.")
    dt = _promoted(tensors)
    out = Tensor._wrap(_row_major(np.concatenate, [t._data for t in used], d, dt))
    if should_record(*tensors):
        node = CatBackward0()
        node._s_dim, node._dim = u64(dim), d
        node._sizes = [t._data.shape[d] if t._data.shape != (0,) else -1 for t in tensors]
        record(node, out, *tensors, broadcast=True)
    return out


concat = concatenate = cat


def stack(tensors, dim: int = 0, *, out=None):
    """Join equally shaped tensors along a new dimension ``dim``."""
    if out is not None:
        from .out import write_out
        return write_out(stack, out, tensors, dim)
    _check_list(tensors, "stack")
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    shape = tensors[0]._data.shape
    for i, t in enumerate(tensors):
        if t._data.shape != shape:
            raise RuntimeError(
                "stack expects each tensor to be equal size, but got "
                f"[{', '.join(map(str, shape))}] at entry 0 and "
                f"[{', '.join(map(str, t._data.shape))}] at entry {i}")
    n = len(shape) + 1
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                         f"but got {dim})")
    out = Tensor._wrap(_row_major(np.stack, [t._data for t in tensors], dim % n,
                                  _promoted(tensors)))
    if should_record(*tensors):
        node = StackBackward0()
        node._s_dim, node._dim = u64(dim), dim % n
        record(node, out, *tensors, broadcast=True)
    return out


# ---------------------------------------------------------------- split / chunk / unbind
def _joined(node, grads):
    """Concatenate the outputs' gradients along the split dimension (zeros where none came)."""
    ref = next(g for g in grads if g is not None)
    d, shape = node._dim, node._shape
    return F.cat([F.zeros(shape[:d] + (n,) + shape[d + 1:], ref) if g is None else g
                  for g, n in zip(grads, node._lengths)], d)


class SplitBackward0(Node):
    """(z0, z1, ...) = self.split(split_size, dim):  concatenate the outputs' gradients."""

    rule = _r("(z0, z1, ...) = a.split(size, dim)", words=True,
              a="cat([grad_0, grad_1, ...], dim)  (zeros for a missing one)")

    saved = ("dim", "self_sym_sizes", "split_size")

    def backward(self, grads):
        return (_joined(self, grads),)


class SplitWithSizesBackward0(SplitBackward0):
    """(z0, z1, ...) = self.split([sizes], dim):  concatenate the outputs' gradients."""

    rule = _r("(z0, z1, ...) = a.split(sizes, dim)", words=True,
              a="cat([grad_0, grad_1, ...], dim)  (zeros for a missing one)")

    saved = ("dim", "self_sym_sizes", "split_sizes")


class UnbindBackward0(Node):
    """(z0, z1, ...) = self.unbind(dim):  stack the outputs' gradients."""

    rule = _r("(z0, z1, ...) = a.unbind(dim)", words=True,
              a="stack([grad_0, grad_1, ...], dim)  (zeros for a missing one)")

    saved = ("dim",)  # and _shape: the input's shape

    def backward(self, grads):
        ref = next(g for g in grads if g is not None)
        zeros = F.zeros(self._shape[:self._dim] + self._shape[self._dim + 1:], ref)
        return (F.stack([zeros if g is None else g for g in grads], self._dim),)


def _views(input, datas, node):
    """Several views of ``input`` made by one multi-output node (an integer input with a
    history: PyTorch's refusal, as for one output)."""
    recorded = should_record(input)
    if recorded and datas and input._data.dtype.kind not in "fc":
        raise RuntimeError(f"Autograd not support dtype: {input.dtype._legacy_name[:-6]}")
    outs = views_of(input, datas, node if recorded else None)
    mark_multi(outs, type(node).__name__[:-9])  # modifying them in place is an error
    return tuple(outs)


@method("split", python=True)
def split(input, split_size_or_sections, dim: int = 0):
    """Views of consecutive pieces along ``dim``: of ``split_size`` each, or of the given sizes."""
    if not input._data.ndim:
        raise needs_dims("split")
    d = input._wrap_dim(dim)
    size = input._data.shape[d]
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        if step < 0:
            raise RuntimeError("split expects split_size be non-negative, but got "
                               f"split_size={step}")
        if step == 0 and size:
            raise RuntimeError("split_size can only be 0 if dimension size is 0, but got "
                               f"dimension size of {size}")
        lengths = [min(step, size - s) for s in range(0, size, step)] if step and size else [size]
        node = SplitBackward0()
        node._s_split_size = step
    else:
        lengths = list(split_size_or_sections)
        if sum(lengths) != size:
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's "
                f"size at dimension {d}), but got split_sizes=[{', '.join(map(str, lengths))}]")
        node = SplitWithSizesBackward0()
        node._s_split_sizes = tuple(lengths)
    starts = np.cumsum([0] + lengths[:-1]).tolist()
    datas = [input._data[_along(d, slice(s, s + n))] for s, n in zip(starts, lengths)]
    node._s_dim, node._dim, node._lengths = u64(dim), d, lengths
    node._s_self_sym_sizes = node._shape = input._data.shape
    return _views(input, datas, node)


@method("chunk")
def chunk(input, chunks: int, dim: int = 0):
    """Split into ``chunks`` pieces of equal size (the last may be smaller, or fewer pieces)."""
    if not input._data.ndim:
        raise needs_dims("chunk")
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    size = input._data.shape[input._wrap_dim(dim)]
    if not size:  # PyTorch: `chunks` empty pieces
        return split(input, [0] * chunks, dim)
    return split(input, max(-(-size // chunks), 1), dim)


@method("unbind")
def unbind(input, dim: int = 0):
    """The slices along ``dim``, as views, each without that dimension."""
    d = input._wrap_dim(dim)
    if not input._data.ndim:
        raise no_dims(d)
    datas = [input._data[_along(d, i) + (...,)] for i in range(input._data.shape[d])]
    node = UnbindBackward0()
    node._s_dim, node._dim = u64(dim), d
    node._shape = input._data.shape
    return _views(input, datas, node)


Tensor._cat, Tensor._stack = cat, stack  # (for the formulas: see _formula.cat)
Tensor.split_with_sizes = lambda self, split_sizes, dim=0: split(self, list(split_sizes), dim)


_TENSOR_SPLIT = ("\n * (Tensor input, tuple of ints indices, int dim = 0)\n * (Tensor input, "
                 "Tensor tensor_indices_or_sections, int dim = 0)\n * (Tensor input, int "
                 "sections, int dim = 0)\n")


@method("tensor_split")
def tensor_split(input, indices_or_sections=None, dim: int = 0, *, sections=None, indices=None,
                 tensor_indices_or_sections=None):
    """``input`` cut along ``dim`` into ``sections`` nearly equal slices (the first ones one
    longer), or at the positions ``indices``; each a view with its own ``SliceBackward0``."""
    how = next((a for a in (indices_or_sections, sections, indices, tensor_indices_or_sections)
                if a is not None), None)
    if isinstance(how, Tensor):
        if how._data.ndim > 1:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a zero-"
                               "dimensional or one-dimensional tensor, but got a tensor with "
                               f"{how._data.ndim} dims")
        if how._data.dtype != np.int64:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype "
                               f"of long, but got {how.dtype._legacy_name[:-6]}")
        how = how._data.tolist()
    if not isinstance(how, (int, list, tuple)) or isinstance(how, bool):
        given = (input,) + (() if how is None else (how,))
        raise TypeError(f"{invalid_combination('tensor_split', given)}{_TENSOR_SPLIT}")
    if not input._data.ndim:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a "
                           "tensor with 0 dims")
    d = input._wrap_dim(dim)
    size = input._data.shape[d]
    if isinstance(how, int):
        if how <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {how}")
        small, extra = divmod(size, how)
        lengths = [small + (i < extra) for i in range(how)]
        how = list(np.cumsum(lengths[:-1], dtype=int))
    starts, ends = [0, *how], [*how, size]
    return tuple(_slice(input, d, int(a), int(b), 1) for a, b in zip(starts, ends))


def _iter(self):
    """``for row in x``: the rows as views made by ``unbind`` (as PyTorch iterates)."""
    if self._data.ndim == 0:
        raise TypeError("iteration over a 0-d tensor")
    return iter(unbind(self, 0))


Tensor.__iter__ = _iter
