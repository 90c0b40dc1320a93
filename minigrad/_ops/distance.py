"""Distances between tensors: ``dist(a, b, p)``, the p-norm of ``a - b`` (broadcast).

Its node, ``DistBackward0``, keeps both operands, ``p`` and the result; its backward is the
norm's (``norm_backward`` of ``a - b``) for ``a`` and the same negated for ``b``.

>>> import minigrad as torch
>>> torch.dist(torch.tensor([3., 4.]), torch.zeros(2))
tensor(5.)
"""

from __future__ import annotations

import numpy as np

from .._dtype import result_type
from .._quiet import quiet, restore
from .._tensor import Tensor
from ..autograd._rule import _r
from ..autograd.graph import Node, SavedTensor, record, should_record
from ..autograd.saved import refuse_saving_inference
from ._core import broadcast_error, method, value
from .arithmetic import check_bool_sub
from .errors import empty_norm
from .reduce import _norm_data, norm_backward

__all__ = ["dist"]


class DistBackward0(Node):
    """z = ||self - other||_p:  dz/dself = norm_backward(grad, self - other, p, z);
    dz/dother = the same, negated."""

    rule = _r("z = dist(a, b, p) = norm(a - b, p)",
              {"a": "self", "b": "other", "z": "result", "p": "p"}, words=True,
              a="norm_backward(grad, a - b, p, z)", b="-norm_backward(grad, a - b, p, z)")

    saved = ("other", "p", "result", "self")

    def backward(self, g):
        diff = value(self._s_self) - value(self._s_other)
        result = value(self._s_result)  # (unpacked before the formula: its version checked)
        if type(diff) is np.ndarray and diff.dtype != result.dtype:  # (NumPy widened it: in
            a, b = value(self._s_self), value(self._s_other)  # PyTorch a 0-d float64 does not)
            diff = a.astype(result.dtype) - b.astype(result.dtype)
        if self._s_p == 0:  # (PyTorch's norm_backward gives no gradient; negating it fails)
            if self.next_functions[1][0] is not None:
                raise RuntimeError("Expected a proper Tensor but got None (or an undefined "
                                   "Tensor in C++) for argument #0 'self'")
            return None, None
        d = norm_backward(g, diff, result, float(self._s_p))
        return d, -d


@method("dist")
def dist(input, other, p=2):
    """The ``p``-norm of ``input - other`` (broadcast together)."""
    if not isinstance(other, Tensor):
        raise TypeError(f"dist(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(other).__name__}")
    if isinstance(p, str) or not isinstance(p, (int, float, Tensor)):
        raise TypeError(f"dist(): argument 'p' must be Number, not {type(p).__name__}")
    p = p.item() if isinstance(p, Tensor) else p  # (kept as given: PyTorch's saved p)
    if should_record(input, other):  # (autograd saves both before the kernel's checks)
        refuse_saving_inference(input, other)
    if input.dtype.np.kind == "b" or other.dtype.np.kind == "b":  # (before the shapes)
        check_bool_sub(input, other)
    try:
        shape = np.broadcast_shapes(input._data.shape, other._data.shape)
    except ValueError:
        raise broadcast_error(input, other) from None
    nd = result_type(input, other).np
    if nd.kind not in "fc":
        raise RuntimeError("norm(): input dtype should be either floating point or complex. "
                           f"Got {result_type(input, other)._legacy_name[:-6]} instead.")
    if 0 in shape and (error := empty_norm(float(p), None, shape)) is not None:
        raise error  # (a p < 0 or inf norm of nothing has no value: PyTorch's vector_norm's)
    token = quiet()  # (inf - inf: NaN, as in PyTorch, without NumPy's warning)
    try:
        diff = np.broadcast_to(input._data.astype(nd) - other._data.astype(nd), shape)
        out = Tensor._wrap(np.asarray(_norm_data(diff, float(p), None, False), dtype=nd))
    finally:
        restore(token)
    if should_record(input, other):
        node = DistBackward0()
        node._s_self, node._s_other, node._s_p = SavedTensor(input), SavedTensor(other), p
        record(node, out, input, other)
        sums = [None if x._data.shape == shape and x._data.dtype == nd else
                (x._data.shape, x._data.dtype) for x in (input, other)]
        if sums != [None, None]:  # the gradients have the broadcast shape and result dtype:
            node._sum_to = sums  # the engine sums each back to its operand's
        node._s_result = SavedTensor(out, node)
    return out
