"""Gradients that do not fit: a tensor with a history given data of another shape, or an
integer tensor given a history in place.

``y.data = other`` with another shape leaves ``y.grad_fn`` (a leaf's: its ``AccumulateGrad``,
while a graph holds it) expecting a gradient of ``y``'s old shape. PyTorch's engine checks
every gradient against the shape its next node recorded, and refuses one that cannot be
summed to it ("Function SumBackward0 returned an invalid gradient at
index 0 - got [1, 3] but expected shape compatible with [1, 3, 1]"); one that can is summed.
minigrad's nodes record no shapes, so the old shape is noted on the node only when ``.data``
changes it, and the engine checks gradients only once that has happened in this process.

>>> import minigrad as torch
>>> a = torch.tensor([[1., 2., 3.]], requires_grad=True)
>>> b = a * 2
>>> b.data = torch.ones(2, 1, 3)  # (a shape b's node can be summed back to)
>>> b.sum().backward()
>>> a.grad
tensor([[4., 4., 4.]])
>>> c = a[..., None] * 2
>>> c.data = torch.ones(1, 3)
>>> c.sum().backward()  # doctest: +ELLIPSIS
Traceback (most recent call last):
RuntimeError: Function SumBackward0 returned an invalid gradient at index 0 - got [1, 3] but ...

An integer or bool tensor can be given a history by an in-place op (``a.fill_(t)``, ``a[0] =
t``), as in PyTorch; no gradient can flow into it. PyTorch's engine casts every gradient to its
tensor's dtype and then asserts that the dtype is differentiable: a backward from that tensor,
or from a float result computed from it, fails when its gradient would be sent. Such a node is
marked when it is recorded, and the engine's check of the gradients then runs too.
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from .functional_utils import sum_to

__all__ = ["misfit", "fit_gradients", "no_gradient_into", "NOT_DIFFERENTIABLE"]

misfit = [False]  # whether any node has had its output's data reshaped or is an integer
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


def fit_gradients(node, out) -> tuple:
    """``node``'s gradients ``out``, each checked against the shape its next node expects
    (where ``.data`` changed it): summed to it, or PyTorch's error; then PyTorch's error for
    one sent to an integer tensor's node."""
    fitted = list(out)
    for i, (nxt, g) in enumerate(zip(node._next_nodes, out)):
        if g is None or nxt is None:
            continue
        expected = getattr(nxt, "_expected_shapes", None)
        if expected:
            fitted[i] = _fit_shape(node, i, nxt, g, expected)
        if getattr(nxt, "_no_gradient", None) is not None:
            raise RuntimeError(NOT_DIFFERENTIABLE.format(nxt._no_gradient))
    return tuple(fitted)


def _fit_shape(node, i: int, nxt, g, expected: dict):
    """Gradient ``g`` summed to the shape ``nxt`` expects, or PyTorch's error."""
    shape = expected.get(node._next_nrs[i] if i < len(node._next_nrs) else 0)
    got = np.shape(getattr(g, "_data", g))
    if shape is None or got == shape:
        return g
    try:
        fits = np.broadcast_shapes(shape, got) == got
    except ValueError:
        fits = False
    if not fits:
        raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index {i}"
                           f" - got {list(got)} but expected shape compatible with "
                           f"{list(shape)}")
    return sum_to(g, shape)


_data = Tensor.data


def _set_data(self, value) -> None:
    node, old = self._grad_fn, self._data.shape
    if node is None and self._accumulator is not None:  # a leaf: its AccumulateGrad, if a graph
        node = self._accumulator()  # still holds it, keeps the shape it was made for
    _data.fset(self, value)
    if node is not None and self._data.shape != old:
        if getattr(node, "_expected_shapes", None) is None:
            node._expected_shapes = {}
        node._expected_shapes.setdefault(self._output_nr, old)
        misfit[0] = True


Tensor.data = property(_data.fget, _set_data, doc=_data.__doc__)
