"""Saved tensors: what a node keeps for its backward, checked against in-place changes.

A node's ``_s_<name>`` holds a :class:`SavedTensor` for each tensor it saved; PyTorch shows it
as ``grad_fn._saved_<name>``. Using it after a backward without ``retain_graph``, or after the
tensor was changed in place, raises PyTorch's error.

>>> import minigrad as torch
>>> x = torch.tensor([1., 2.], requires_grad=True)
>>> y = x.exp()
>>> with torch.no_grad():
...     _ = y.mul_(2)
>>> try:
...     y.grad_fn._saved_result
... except RuntimeError as e:
...     print(str(e)[:20], "...", str(e).split(", ")[1])
one of the variables ... which is output 0 of Exp
"""

from __future__ import annotations

import re
import weakref

from .._dtype import from_numpy_dtype
from .._state import local as _mode
from .._tensor import Tensor

__all__ = ["SavedTensor", "FREED_MESSAGE", "INFERENCE_MESSAGE"]

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward."
)
INFERENCE_MESSAGE = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead "
    "of `torch.inference_mode()`."
)



class SavedTensor:
    """A tensor a node keeps for its backward, checked against in-place changes when used.

    A saved input is kept as the tensor object itself (``_saved_self is x``); a saved output is
    kept as its data (to avoid a reference cycle) and rebuilt with ``grad_fn`` on access.
    ``release()`` (after a backward without ``retain_graph``) drops both.
    """

    __slots__ = ("tensor", "data", "vc", "version", "node", "output_nr", "released")

    def __init__(self, tensor, output_of=None):
        if tensor._inference:
            raise RuntimeError(INFERENCE_MESSAGE)
        self.data = tensor._data
        self.vc = vc = tensor._vc
        self.version = vc[0]
        self.released = False
        if output_of is None:
            self.tensor = tensor
            self.node = None
        else:
            self.tensor = None
            self.node = weakref.ref(output_of)
            self.output_nr = tensor._output_nr

    def release(self) -> None:
        self.released = True
        self.tensor = self.data = None

    def _check(self) -> None:
        if self.released:
            raise RuntimeError(FREED_MESSAGE)
        if self.vc[0] != self.version:
            raise RuntimeError(_modified_message(self))

    def unpack(self):
        """The saved tensor, raising PyTorch's errors if freed or modified in place."""
        if self.released or self.vc[0] != self.version:
            self._check()
        if self.tensor is not None:
            return self.tensor
        t = Tensor._wrap(self.data)
        t._vc = self.vc
        node = self.node()
        if node is not None:
            t._requires_grad = True
            t._grad_fn = node
            t._output_nr = self.output_nr
        return t

    def get(self):
        """What a backward formula uses: the array, or the tensor under create_graph."""
        if _mode.grad_enabled:
            return self.unpack()
        if self.released or self.vc[0] != self.version:
            self._check()
        return self.data


def _modified_message(saved: SavedTensor) -> str:
    data, t = saved.data, saved.tensor
    shape = ", ".join(str(s) for s in data.shape)
    node, nr = (t.grad_fn, t._output_nr) if t is not None else (saved.node(), saved.output_nr)
    where = f", which is output {nr} of {_op_name(node)}," if node is not None else ""
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [torch.{from_numpy_dtype(data.dtype)._legacy_name} [{shape}]]{where} is "
        f"at version {saved.vc[0]}; expected version {saved.version} instead. Hint: enable "
        "anomaly detection to find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False)."
    )


def _op_name(node) -> str:
    """``MulBackward0`` -> ``Mul``: how PyTorch names the op in the in-place error."""
    return re.sub(r"Backward\d*$", "", node.name())
