"""Gradients that no longer fit: a tensor with a history given data of another shape.

``y.data = other`` with another shape leaves ``y.grad_fn`` expecting a gradient of ``y``'s old
shape. PyTorch's engine checks every gradient against the shape its next node recorded, and
refuses one that cannot be summed to it ("Function SumBackward0 returned an invalid gradient at
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
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from .functional_utils import sum_to

__all__ = ["reshaped", "fit_gradients"]

reshaped = [False]  # whether any node has had its output's data reshaped (the engine checks)


def fit_gradients(node, out) -> tuple:
    """``node``'s gradients ``out``, each checked against the shape its next node expects
    (where ``.data`` changed it): summed to it, or PyTorch's error."""
    fitted = list(out)
    for i, (nxt, g) in enumerate(zip(node._next_nodes, out)):
        expected = getattr(nxt, "_expected_shapes", None)
        if g is None or not expected:
            continue
        shape = expected.get(node._next_nrs[i] if i < len(node._next_nrs) else 0)
        got = np.shape(getattr(g, "_data", g))
        if shape is None or got == shape:
            continue
        try:
            fits = np.broadcast_shapes(shape, got) == got
        except ValueError:
            fits = False
        if not fits:
            raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index {i}"
                               f" - got {list(got)} but expected shape compatible with "
                               f"{list(shape)}")
        fitted[i] = sum_to(g, shape)
    return tuple(fitted)


_data = Tensor.data


def _set_data(self, value) -> None:
    node, old = self._grad_fn, self._data.shape
    _data.fset(self, value)
    if node is not None and self._data.shape != old:
        if getattr(node, "_expected_shapes", None) is None:
            node._expected_shapes = {}
        node._expected_shapes.setdefault(self._output_nr, old)
        reshaped[0] = True


Tensor.data = property(_data.fget, _set_data, doc=_data.__doc__)
