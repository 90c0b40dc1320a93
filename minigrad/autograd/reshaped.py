"""Gradients that do not fit: a tensor with a history whose shape or dtype changed since its
node was recorded, or an integer tensor given a history in place.

PyTorch's nodes record the shape and dtype of each tensor they made (a leaf's
``AccumulateGrad``: of its leaf), and the engine checks every gradient sent to a node against
them: one of another shape is summed to the recorded one if it can be ("Function SumBackward0
returned an invalid gradient at index 0 - got [1, 3] but expected shape compatible with
[1, 3, 1]" if not), one of another dtype is cast to the recorded one. The tensor's metadata can
change afterwards, without a new node: ``y.data = other``, or an in-place shape op
(``unsqueeze_``, ``squeeze_``, ``t_``, ``transpose_``) in no_grad mode. minigrad's nodes record
no metadata, so the old shape and dtype are noted on the node when such a change happens, and
the engine checks gradients only once that has happened in this process.

>>> import minigrad as torch
>>> a = torch.tensor([[1., 2., 3.]], requires_grad=True)
>>> b = a * 2
>>> b.data = torch.ones(2, 1, 3, dtype=torch.float64)  # (a shape b's node can be summed back to)
>>> b.sum().backward()
>>> a.grad
tensor([[4., 4., 4.]])
>>> c = a[..., None] * 2
>>> c.data = torch.ones(1, 3)
>>> c.sum().backward()  # doctest: +ELLIPSIS
Traceback (most recent call last):
RuntimeError: Function SumBackward0 returned an invalid gradient at index 0 - got [1, 3] but ...

A leaf whose dtype ``.data =`` changed gets a new ``AccumulateGrad`` (PyTorch resets it): a
graph recorded before sends gradients of the old dtype, one recorded after of the new.

An integer or bool tensor can be given a history by an in-place op (``a.fill_(t)``, ``a[0] =
t``), as in PyTorch; no gradient can flow into it. PyTorch's engine casts every gradient to its
tensor's dtype and then asserts that the dtype is differentiable: a backward from that tensor,
or from a float result computed from it, fails when its gradient would be sent. Such a node is
marked when it is recorded, and the engine's check of the gradients then runs too.
"""

from __future__ import annotations

import numpy as np

from .._dtype import from_numpy_dtype
from .._tensor import Tensor
from .functional_utils import sum_to

__all__ = ["misfit", "fit_gradients", "fit_root", "keep_metadata", "no_gradient_into",
           "not_differentiable", "NOT_DIFFERENTIABLE"]

misfit = [False]  # whether any node's tensor has changed shape or dtype since, or is an integer
# tensor's (then the engine checks the gradients it sends)

# PyTorch's engine casts each gradient to its tensor's dtype and then asserts it can flow back
NOT_DIFFERENTIABLE = (
    'isDifferentiableType(grad.scalar_type()) INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/'
    'torch/csrc/autograd/engine.cpp":998, please report a bug to PyTorch. \n'
    "(No gradient can flow into an integer or bool tensor, and this {} tensor has a grad_fn "
    "from an in-place op such as fill_ or a[i] = t. Use a floating point tensor there.)")


def no_gradient_into(node, dtype) -> None:
    """Mark ``node``, just recorded for a tensor of integer or bool ``dtype``: a gradient
    sent to it raises PyTorch's error."""
    node._no_gradient = dtype
    misfit[0] = True


def not_differentiable(dtype) -> RuntimeError:
    """PyTorch's error for an op that would give a tensor of integer or bool (NumPy) ``dtype``
    a history."""
    return RuntimeError("Autograd not support dtype: " + from_numpy_dtype(dtype)._legacy_name[:-6])


def keep_metadata(t, shape: tuple, dtype) -> None:
    """Tensor ``t``'s shape and (NumPy) dtype are about to change from ``shape`` and
    ``dtype`` without a new node: note them on its node (its ``grad_fn``, or its leaf's
    ``AccumulateGrad`` while a graph holds it), which expects gradients of them."""
    node = t._grad_fn
    if node is None and t._accumulator is not None:
        node = t._accumulator()
    if node is None:
        return
    if node._expected is None:
        node._expected = {}
    node._expected.setdefault(t._output_nr, (shape, dtype))  # (the first: what it recorded)
    misfit[0] = True


def fit_gradients(node, out) -> tuple:
    """``node``'s gradients ``out`` as its formula returned them, each checked against the
    metadata its next node recorded where its tensor changed since (summed to that shape or
    PyTorch's error, cast to that dtype), else summed back where the forward broadcast (the
    engine's usual step); then PyTorch's error for one sent to an integer tensor's node."""
    fitted, sums = list(out), node._sum_to
    for i, (nxt, g) in enumerate(zip(node._next_nodes, out)):
        if g is None or nxt is None:
            continue
        nr = node._next_nrs[i] if i < len(node._next_nrs) else 0
        if nxt._expected is not None and nr in nxt._expected:
            fitted[i] = _fit(g, nxt._expected[nr], i, f"Function {node.name()} returned an ")
        elif sums is not None and sums[i] is not None:
            fitted[i] = sum_to(g, *sums[i])
        if getattr(nxt, "_no_gradient", None) is not None:
            raise RuntimeError(NOT_DIFFERENTIABLE.format(nxt._no_gradient))
    return tuple(fitted)


def fit_root(edges, grads) -> list:
    """The gradients a backward starts from, checked as :func:`fit_gradients` does against the
    metadata of their edges ``(node, input_nr)`` (PyTorch checks the roots' gradients too)."""
    return [g if g is None or node._expected is None else
            _fit(g, node._expected.get(nr), i, "")
            for i, ((node, nr), g) in enumerate(zip(edges, grads))]


def _fit(g, expected, i: int, sender: str):
    """Gradient ``g`` (index ``i`` of what ``sender`` sent) summed to the shape ``expected`` and
    cast to its dtype, or PyTorch's error."""
    if expected is None:
        return g
    shape, dtype = expected
    data = getattr(g, "_data", g)
    got = np.shape(data)
    if got != shape:
        try:
            fits = np.broadcast_shapes(shape, got) == got
        except ValueError:
            fits = False
        if not fits:
            raise RuntimeError(f"{sender}invalid gradient at index {i} - got {list(got)} but "
                               f"expected shape compatible with {list(shape)}")
        return sum_to(g, shape, dtype)
    if data.dtype != dtype:
        return sum_to(g, shape, dtype)  # (a cast only; recorded under create_graph)
    return g


_data = Tensor.data


def _set_data(self, value) -> None:
    old = self._data
    _data.fset(self, value)
    new = self._data
    if new.shape != old.shape or new.dtype != old.dtype:
        keep_metadata(self, old.shape, old.dtype)
        if new.dtype != old.dtype:  # (PyTorch resets the leaf's AccumulateGrad: a new graph
            self._accumulator = None  # records the new dtype)


Tensor.data = property(_data.fget, _set_data, doc=_data.__doc__)
